# The Pipefill relay for a course server: the app, the bridge, both offset servers, the echo server and
# the leaderboard, as `npm start` runs them, listening on every interface of the container.
#   docker build -t pipefill .
#   docker run -p 8080:8080 -p 9801:9801/udp -p 9802:9802/udp -p 18000:18000 \
#     -v pipefill-data:/data pipefill --allow-origin http://relay.example.edu:8080 --leaderboard /data/leaderboard.csv
FROM node:20-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build
EXPOSE 8080 9801/udp 9802/udp 18000
STOPSIGNAL SIGINT
ENTRYPOINT ["node_modules/.bin/tsx", "server/main.ts", "--host", "0.0.0.0"]
