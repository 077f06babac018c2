# The Pipefill relay for a course server: the app, the bridge, both offset servers, the echo server, the
# leaderboard and the contest, as `npm start` runs them, listening on every interface of the container.
#   docker build -t pipefill .
#   docker run -p 8080:8080 -p 9801:9801/udp -p 9802:9802/udp -p 18000:18000 \
#     -v pipefill-data:/data pipefill --allow-origin http://relay.example.edu:8080 --leaderboard /data/leaderboard.csv
# Built in stages: the first installs every dependency and builds (npm run build: the app into dist/, the
# relay and the contest's sandbox bundled into build/relay/ with the libraries they use); the image keeps
# that output and Node, and no node_modules, test or build tool at all.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production
# package.json marks the project's root, where the relay finds dist/ and public/traces/.
COPY package.json ./
COPY --from=build /app/dist dist
COPY --from=build /app/build/relay build/relay
COPY public/traces public/traces
# The relay runs as node, not root; /data (a volume for --leaderboard or --data) is node's.
RUN mkdir /data && chown node:node /data
USER node
EXPOSE 8080 9801/udp 9802/udp 18000
STOPSIGNAL SIGINT
ENTRYPOINT ["node", "build/relay/server/main.js", "--host", "0.0.0.0"]
