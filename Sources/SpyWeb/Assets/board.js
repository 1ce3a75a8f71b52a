"use strict";
(() => {
  const log = document.getElementById("log");
  const status = document.getElementById("status");
  const room = new URLSearchParams(location.search).get("room");
  const hello = { name: "", watch: true };
  if (room) hello.room = room;
  window.Spy.connect(hello, (message) => {
    log.textContent += JSON.stringify(message) + "\n";
  }, (text) => { status.textContent = text; });
})();
