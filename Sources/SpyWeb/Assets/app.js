"use strict";
document.getElementById("join").addEventListener("submit", (event) => {
  event.preventDefault();
  const log = document.getElementById("log");
  const status = document.getElementById("status");
  const room = document.getElementById("room").value.trim();
  const hello = { name: document.getElementById("name").value.trim() };
  if (room) hello.room = room;
  window.Spy.connect(hello, (message) => {
    log.textContent += JSON.stringify(message) + "\n";
  }, (text) => { status.textContent = text; });
});
