import { createSocket } from 'node:dgram';

/** A plain UDP echo on 127.0.0.1 for the bridge benchmark; prints its port. */
const socket = createSocket({ type: 'udp4', recvBufferSize: 4 << 20, sendBufferSize: 4 << 20 });
socket.on('message', (m, from) => socket.send(m, from.port, from.address));
socket.bind(0, '127.0.0.1', () => console.log(socket.address().port));
