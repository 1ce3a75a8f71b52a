"use strict";
// One protocol message per WebSocket text frame, the same JSON as the framed protocol's payloads.
window.Spy = {
  connect(hello, onMessage, onStatus) {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    socket.addEventListener("open", () => {
      onStatus("connected");
      socket.send(JSON.stringify(Object.assign({ type: "hello", protocol: 1 }, hello)));
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "ping") socket.send(JSON.stringify({ type: "pong", id: message.id }));
      onMessage(message);
    });
    socket.addEventListener("close", (event) => onStatus(`closed (${event.code})`));
    return socket;
  },
};
