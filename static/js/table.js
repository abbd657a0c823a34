// The table page: countdown, live panel and chat over one websocket. Forms are htmx POSTs; the
// socket only brings what the server pushes. This script knows no game: it swaps the panel the
// server rendered for this seat, keeps the newest version, and shows the chat channels it is
// told this seat may read. No inline script anywhere (the Content-Security-Policy forbids it).
(function () {
  "use strict";

  const table = document.getElementById("table");
  if (!table) return;

  // --- The version shown ----------------------------------------------------------------
  // Every panel carries its table version; anything older than what is shown is dropped, so a
  // late answer or push never takes the page back.
  function shownVersion() {
    const panel = document.getElementById("panel");
    return panel ? Number(panel.dataset.version || 0) : 0;
  }

  function afterPanelSwap() {
    const panel = document.getElementById("panel");
    if (!panel) return;
    const label = document.getElementById("phase-label");
    if (label && panel.dataset.phaseLabel) label.textContent = panel.dataset.phaseLabel;
    markTitle(panel.dataset.attention === "yes");
    syncClockFromPage();
    tick();
  }

  function showPanel(html, version) {
    if (!html || version <= shownVersion()) return;
    const panel = document.getElementById("panel");
    if (!panel) return;
    const holder = document.createElement("div");
    holder.innerHTML = html.trim();
    const fresh = holder.firstElementChild;
    if (!fresh) return;
    panel.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    afterPanelSwap();
  }

  // An htmx answer (a form's new panel) older than the panel shown is not swapped in.
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || target.id !== "panel") return;
    const match = /data-version="(\d+)"/.exec(event.detail.xhr.responseText || "");
    if (match && Number(match[1]) < shownVersion()) event.detail.shouldSwap = false;
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "panel") afterPanelSwap();
  });
  // A form stays busy until its answer comes: no second click sends it twice.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    event.detail.elt.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
  });
  document.body.addEventListener("htmx:afterRequest", function (event) {
    if (!event.detail.elt.isConnected) return;
    event.detail.elt.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
  });

  const title = document.title;
  function markTitle(attention) {
    document.title = attention ? "(!) " + title : title;
  }

  // --- Countdown ------------------------------------------------------------------------
  // The server sends the deadline and its own "now"; the offset between the two clocks keeps
  // a phone with a wrong clock right.
  let clockOffsetMs = 0;

  function syncClockFromPage() {
    const el = document.querySelector("time.countdown");
    if (!el) return;
    const serverNow = Date.parse(el.dataset.now);
    if (!Number.isNaN(serverNow)) clockOffsetMs = serverNow - Date.now();
  }

  function formatLeft(ms) {
    const total = Math.max(0, Math.floor(ms / 1000));
    const m = Math.floor(total / 60);
    const s = total % 60;
    return m + ":" + String(s).padStart(2, "0");
  }

  function tick() {
    document.querySelectorAll("time.countdown").forEach(function (el) {
      const deadline = Date.parse(el.dataset.deadline);
      if (Number.isNaN(deadline)) return;
      const left = deadline - (Date.now() + clockOffsetMs);
      el.textContent = formatLeft(left);
      if (left <= 0 && !el.dataset.expired) {
        el.dataset.expired = "1";
        // The server moves the game on by itself; ask for the new state a moment later.
        setTimeout(catchUp, 1200);
      }
    });
  }

  // --- Chat -----------------------------------------------------------------------------
  // Lines are keyed by their id: a line already shown is never shown twice, and one that
  // arrives late still lands in its place.
  const shownIds = new Set();
  let lastChatId = 0;
  document.querySelectorAll(".chat-log li[data-id]").forEach(function (li) {
    const id = Number(li.dataset.id);
    shownIds.add(id);
    lastChatId = Math.max(lastChatId, id);
  });

  function localTime(iso) {
    const d = new Date(iso);
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }

  function addChatLine(msg) {
    const log = document.querySelector('.chat-log[data-channel="' + CSS.escape(msg.channel) + '"]');
    const id = Number(msg.id);
    if (!log || !id || shownIds.has(id)) return;
    const li = document.createElement("li");
    li.dataset.id = id;
    const when = document.createElement("time");
    when.dateTime = msg.sent_at;
    when.textContent = localTime(msg.sent_at);
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = msg.text; // text, never HTML
    if (msg.note === true) {
      // The app's own note: no name, a mark and a box no player's line has.
      li.className = "note";
      li.setAttribute("role", "note");
      const mark = document.createElement("span");
      mark.className = "note-mark";
      mark.setAttribute("aria-label", "Note from the app");
      li.append(mark, " ", text, " ", when);
    } else {
      li.className = "line" + (msg.mine ? " mine" : "");
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = msg.name;
      li.append(who, " ", when, " ", text);
    }
    let before = null;
    for (const other of log.children) {
      if (Number(other.dataset.id) > id) { before = other; break; }
    }
    log.insertBefore(li, before);
    shownIds.add(id);
    lastChatId = Math.max(lastChatId, id);
    if (!before) log.scrollTop = log.scrollHeight;
  }

  // The channels this seat may read now: a box for each, the others removed.
  function showChannels(channels) {
    if (!channels) return;
    const chat = document.getElementById("chat");
    if (!chat) return;
    const names = new Set(channels.map(function (c) { return c.name; }));
    chat.querySelectorAll(".channel").forEach(function (box) {
      if (!names.has(box.dataset.channel)) box.remove();
    });
    channels.forEach(function (c) {
      let box = chat.querySelector('.channel[data-channel="' + CSS.escape(c.name) + '"]');
      if (!box) {
        if (!c.html) return;
        const holder = document.createElement("div");
        holder.innerHTML = c.html.trim();
        box = holder.firstElementChild;
        chat.append(box);
        if (window.htmx) window.htmx.process(box);
      }
      const form = box.querySelector("form.chat-form");
      const closed = box.querySelector(".chat-closed");
      if (form) form.hidden = !c.write;
      if (closed) { closed.hidden = c.write; closed.textContent = c.closed || ""; }
    });
  }

  // --- The socket -----------------------------------------------------------------------
  let socket = null;
  let retryMs = 1000;
  let pollTimer = null;
  const offline = document.getElementById("offline");

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const url = scheme + location.host + table.dataset.ws +
      "?version=" + shownVersion() + "&after=" + lastChatId;
    socket = new WebSocket(url);
    socket.addEventListener("open", function () {
      retryMs = 1000;
      if (offline) offline.hidden = true;
      stopPolling();
    });
    socket.addEventListener("message", function (event) {
      let msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      if (msg.type === "hello" || msg.type === "panel") {
        showPanel(msg.panel, Number(msg.version));
        showChannels(msg.channel_state);
        (msg.history || []).forEach(addChatLine);
      } else if (msg.type === "chat") {
        addChatLine(msg);
      }
    });
    socket.addEventListener("close", function (event) {
      socket = null;
      if (event.code === 4403) { location.reload(); return; }
      if (offline) offline.hidden = false;
      startPolling();
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 15000);
    });
  }

  function catchUp() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync", after: lastChatId, version: shownVersion() }));
    } else {
      poll();
    }
  }

  // Without a socket the page asks for its panel every few seconds (204 when nothing changed).
  function poll() {
    fetch(table.dataset.panelUrl + "?version=" + shownVersion(), {
      headers: { "HX-Request": "true" }, credentials: "same-origin",
    }).then(function (response) {
      if (response.status !== 200) return null;
      return response.text();
    }).then(function (html) {
      if (!html) return;
      const match = /data-version="(\d+)"/.exec(html);
      if (match) showPanel(html, Number(match[1]));
    }).catch(function () {});
  }
  function startPolling() { if (!pollTimer) pollTimer = setInterval(poll, 5000); }
  function stopPolling() { if (pollTimer) { clearInterval(pollTimer); pollTimer = null; } }

  // The page says it is still open (the table shows who is connected).
  setInterval(function () {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
  }, 30000);

  afterPanelSwap();
  setInterval(tick, 1000);
  connect();
})();
