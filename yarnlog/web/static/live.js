// The live board: the server sends the viewer's board again whenever the journal moves
// (server-sent events); a lost connection is said on the page, and the browser reconnects and
// gets the board as it is now. No framework, nothing fetched from elsewhere.
"use strict";
(function () {
  var board = document.getElementById("live");
  var status = document.getElementById("status");
  if (!board || !board.dataset.stream || !window.EventSource) { return; }
  function say(text, state) { status.textContent = text; status.className = "status " + state; }
  var source = new EventSource(board.dataset.stream);
  source.addEventListener("board", function (event) {
    var doc = new DOMParser().parseFromString("<div>" + event.data + "</div>", "text/html");
    board.replaceChildren.apply(board, Array.prototype.slice.call(doc.body.firstChild.childNodes));
    say("Live: the board follows the table.", "ok");
  });
  source.addEventListener("closed", function () { source.close(); say("This link is closed.", "lost"); });
  source.onopen = function () { say("Live: the board follows the table.", "ok"); };
  source.onerror = function () { say("Connection lost: reconnecting…", "lost"); };
})();
