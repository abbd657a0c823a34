// One Night game page: countdown, live updates and chat over one websocket.
// No inline script anywhere (the Content-Security-Policy forbids it); everything is here.
(function () {
  "use strict";

  // --- Countdown ------------------------------------------------------------------------
  // The server sends the deadline and its own "now"; we count from the offset between the two
  // clocks, so a phone whose clock is wrong still shows the right time left.
  let clockOffsetMs = 0;

  function syncClock(serverNowIso) {
    const serverNow = Date.parse(serverNowIso);
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

  // Over the socket when it is live (the answer carries the new panel if the phase changed),
  // else by fetching the status box.
  function catchUp() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "sync", after: lastChatId }));
    } else {
      refreshStatus();
    }
  }

  function refreshStatus() {
    const status = document.getElementById("status");
    if (status && window.htmx) window.htmx.trigger(status, "refresh");
  }

  // --- Chat -----------------------------------------------------------------------------
  // Lines are keyed by their id: a line already shown is never shown twice, and one that
  // arrives late (several server processes do not promise an order) still lands in its place.
  const shownIds = new Set();
  let lastChatId = 0;

  function chatLog() {
    return document.getElementById("chat-log");
  }

  // Chat times in the reader's own time zone (the server renders UTC).
  function localTime(iso) {
    const d = new Date(iso);
    return String(d.getHours()).padStart(2, "0") + ":" + String(d.getMinutes()).padStart(2, "0");
  }

  function addChatLine(msg) {
    const log = chatLog();
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
      // The app's own note: no name, a mark and a box of its own (chat.html builds the same),
      // so no player's line can look like one, whatever its name or text.
      li.className = "note";
      li.setAttribute("role", "note");
      const mark = document.createElement("span");
      mark.className = "note-mark";
      mark.setAttribute("aria-label", "Note from the app");
      li.append(mark, " ", text, " ", when);
    } else {
      li.className = msg.mine ? "line mine" : "line";
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = msg.name;
      li.append(who, " ", when, " ", text);
    }
    let next = null;
    if (id < lastChatId) {
      next = Array.from(log.children).find(function (other) {
        return Number(other.dataset.id) > id;
      }) || null;
    }
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    log.insertBefore(li, next);
    shownIds.add(id);
    lastChatId = Math.max(lastChatId, id);
    if (atBottom || msg.mine) log.scrollTop = log.scrollHeight;
  }

  function setChatOpen(open) {
    const form = document.getElementById("chat-form");
    const closed = document.getElementById("chat-closed");
    if (form) form.hidden = !open;
    if (closed) closed.hidden = open;
  }

  function showChatError(text) {
    const el = document.getElementById("chat-error");
    if (!el) return;
    el.textContent = text;
    el.hidden = !text;
  }

  // --- Websocket with reconnection --------------------------------------------------------
  let socket = null;
  let attempts = 0;
  let everConnected = false;
  let pageClosing = false;
  // Forms sent over the socket and not answered yet, oldest first (the server answers them in
  // order). If the socket drops meanwhile, whether they were taken is unknown, so the next
  // connection asks for the panel as it now stands.
  const formsInFlight = [];
  let panelInDoubt = false;
  let formTimer = null;
  const FORM_ANSWER_MS = 10000; // no answer by then: the socket is taken for dead

  function connect() {
    const root = document.getElementById("game");
    if (!root || !root.dataset.ws) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // First connection: only what came after the page was drawn. After a drop: the recent
    // history again (lines are keyed by id, so nothing doubles and nothing is missed).
    const after = attempts === 0 && !everConnected ? lastChatId : 0;
    // The phase the page shows: if the game has moved on, the server sends the new panel.
    let query = "?after=" + after + "&phase=" + encodeURIComponent(root.dataset.phase || "");
    if (panelInDoubt) query += "&panel=1";
    socket = new WebSocket(scheme + location.host + root.dataset.ws + query);
    socket.addEventListener("open", function () {
      attempts = 0;
      everConnected = true;
      document.getElementById("offline")?.setAttribute("hidden", "");
      document.body.dataset.live = "yes";
    });
    socket.addEventListener("message", function (event) {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      handle(msg, root);
    });
    socket.addEventListener("close", function (event) {
      document.body.dataset.live = "no";
      if (formsInFlight.length) {
        while (formsInFlight.length) formDone();
        panelInDoubt = true;
      }
      if (pageClosing) return;
      if (event.code === 4403) return; // not seated: do not retry
      document.getElementById("offline")?.removeAttribute("hidden");
      // Back off: 0.5 s, 1 s, 2 s ... up to 15 s, with jitter so a restarted server is not
      // hit by every browser at the same instant.
      const delay = Math.min(15000, 500 * Math.pow(2, attempts)) * (0.75 + Math.random() / 2);
      attempts += 1;
      setTimeout(connect, delay);
    });
  }

  // Replace the status box with the server's fresh rendering of it (built for this player).
  function swapStatus(html) {
    const status = document.getElementById("status");
    if (!status || !html) return;
    status.outerHTML = html;
    const fresh = document.getElementById("status");
    if (fresh && window.htmx) window.htmx.process(fresh);
    keepFormsBusy();
    tick();
  }

  // Phases in the order a game goes through them; a panel never replaces a later one.
  const PHASE_ORDER = ["lobby", "night", "day", "voting", "reveal", "cancelled"];

  function isOlderPhase(phase, than) {
    return PHASE_ORDER.indexOf(phase) < PHASE_ORDER.indexOf(than);
  }

  // Replace the whole panel (role message, forms, report) with the one the server built for
  // this player in the new phase, instead of reloading the page.
  function swapPanel(html) {
    const panel = document.getElementById("panel");
    if (!panel || !html) return;
    const phase = panel.dataset.phase;
    panel.outerHTML = html;
    const fresh = document.getElementById("panel");
    if (fresh && window.htmx) window.htmx.process(fresh);
    if (fresh && fresh.dataset.phase === phase) keepFormsBusy();
    panelChanged();
  }

  // Replace one card of the panel (the answer to a form that changed only that card). A card
  // the panel no longer has was overtaken: the game moved on and its new panel came first.
  function swapPart(id, html) {
    const panel = document.getElementById("panel");
    const old = panel && id ? document.getElementById(id) : null;
    if (!old || !panel.contains(old)) return;
    // The form was taken: an error shown for an earlier try no longer holds.
    panel.querySelectorAll(':scope > .error[role="alert"]').forEach(function (el) {
      el.remove();
    });
    old.outerHTML = html;
    const fresh = document.getElementById(id);
    if (fresh && window.htmx) window.htmx.process(fresh);
    keepFormsBusy();
    tick();
  }

  // Bring the page around the panel (its phase, the header, the chat box) up to the phase of
  // the panel now shown, whether it came over the socket or as the answer to a form.
  function panelChanged() {
    const root = document.getElementById("game");
    const panel = document.getElementById("panel");
    if (!root || !panel || !panel.dataset.phase) return;
    root.dataset.phase = panel.dataset.phase;
    const label = document.getElementById("phase-label");
    if (label) {
      label.textContent = panel.dataset.phaseLabel || panel.dataset.phase;
      label.className = "phase phase-" + panel.dataset.phase;
    }
    setChatOpen(panel.dataset.chatOpen === "yes");
    setUpCopyFields();
    tick();
  }

  // A form that moved the game on is answered without a panel ("follows"): the phase
  // change's push brings it, as it brings every other page of the table theirs. Should that
  // push not come in time, ask for the panel as it stands (not too soon: on a server that is
  // late with its pushes, every page asking again would make it later still).
  const PANEL_PUSH_MS = 5000;
  let panelTimer = null;

  function expectPanel(phase) {
    clearTimeout(panelTimer);
    panelTimer = setTimeout(function () {
      const root = document.getElementById("game");
      if (!root || !isOlderPhase(root.dataset.phase, phase)) return;
      if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: "sync", after: lastChatId, panel: true }));
      } else {
        panelInDoubt = true; // the next connection asks for it
      }
    }, PANEL_PUSH_MS);
  }

  // A frame for the page: the new panel when the phase changed, else the status box.
  function applyState(msg, root) {
    syncClock(msg.now);
    // A frame built before the page's newest one can arrive after it: it has nothing to add.
    if (isOlderPhase(msg.phase, root.dataset.phase)) return true;
    if (msg.follows) {
      if (msg.phase !== root.dataset.phase) expectPanel(msg.phase);
      return true;
    }
    setChatOpen(msg.chat_open);
    if (msg.part_html) {
      swapPart(msg.part, msg.part_html);
      return true;
    }
    if (msg.panel_html) {
      swapPanel(msg.panel_html);
      return true;
    }
    if (msg.phase !== root.dataset.phase) {
      location.reload(); // a server that sends no panel: fall back to a fresh page
      return false;
    }
    swapStatus(msg.html);
    return true;
  }

  function handle(msg, root) {
    if (msg.type === "hello") {
      if (msg.panel_html) panelInDoubt = false;
      if (applyState(msg, root)) (msg.history || []).forEach(addChatLine);
    } else if (msg.type === "chat") {
      addChatLine(msg);
    } else if (msg.type === "status") {
      // A form whose panel follows stays busy until the new panel replaces it.
      if (msg.answer) formDone(msg.follows === true);
      applyState(msg, root);
    } else if (msg.type === "form-error") {
      formDone();
      showPanelError(msg.message);
      // The form may have been taken before something failed: ask for the panel as it is.
      if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ type: "sync", after: lastChatId, panel: true }));
      }
    } else if (msg.type === "error") {
      showChatError(msg.message);
    } else if (msg.type === "sent") {
      showChatError("");
    }
  }

  // --- Game forms over the socket --------------------------------------------------------
  // With a live socket, a panel form htmx is about to POST goes over the socket instead: the
  // same fields to the same handler on the server, answered (a "status" frame marked
  // "answer") with the panel (with the error, if refused), or only the card the form changed
  // while the game stays in its phase, or, when it moved the game on, with nothing but the
  // new phase (the push brings the panel), without an HTTP round trip. Offline, htmx POSTs
  // as usual, and without JavaScript the forms post and redirect.
  function sendFormOverSocket(event) {
    const detail = event.detail;
    const live = socket && socket.readyState === WebSocket.OPEN;
    const panel = document.getElementById("panel");
    if (!live || detail.verb !== "post" || !panel || !panel.contains(detail.elt)) return;
    if (detail.errors && detail.errors.length) return; // htmx halts it and says why
    const fields = {};
    detail.formData.forEach(function (value, name) {
      if (typeof value !== "string") return;
      (fields[name] = fields[name] || []).push(value);
    });
    event.preventDefault(); // no HTTP request
    socket.send(JSON.stringify({ type: "form", path: detail.path, fields: fields }));
    const form = detail.elt;
    formsInFlight.push(form);
    setBusy(form, true);
    // A socket can look open and be dead (a phone that changed networks): without an answer
    // in time, close it; the reconnection asks for the panel (panelInDoubt).
    clearTimeout(formTimer);
    formTimer = setTimeout(function () {
      if (formsInFlight.length && socket) socket.close();
    }, FORM_ANSWER_MS);
  }

  // The oldest form in flight got its answer (or can no longer get one). `stillBusy`: its
  // panel is on its way, so its buttons stay disabled until that panel replaces it.
  function formDone(stillBusy) {
    const form = formsInFlight.shift();
    if (!formsInFlight.length) clearTimeout(formTimer);
    if (!form || stillBusy) return;
    setBusy(form, false);
  }

  function setBusy(form, busy) {
    if (busy) form.setAttribute("aria-busy", "true");
    else form.removeAttribute("aria-busy");
    form.querySelectorAll("button").forEach(function (b) {
      b.disabled = busy;
    });
  }

  // A push can replace, within the same phase, the card of a form still waiting for its
  // answer (the lobby's status box, start button included, is pushed again whenever someone
  // joins or the deck changes). The fresh copy of that form, found by where it posts, takes
  // the old one's place in the queue and stays busy until the answer comes: clicked again,
  // it would only be refused.
  function keepFormsBusy() {
    const panel = document.getElementById("panel");
    formsInFlight.forEach(function (form, i) {
      const action = form.getAttribute("action");
      if (!panel || !action || panel.contains(form)) return;
      const twin = Array.from(panel.querySelectorAll("form")).find(function (other) {
        return other.getAttribute("action") === action;
      });
      if (!twin) return;
      setBusy(twin, true);
      formsInFlight[i] = twin;
    });
  }

  function showPanelError(text) {
    const panel = document.getElementById("panel");
    if (!panel || !text) return;
    let el = document.getElementById("form-error");
    if (!el) {
      el = document.createElement("p");
      el.id = "form-error";
      el.className = "error card";
      el.setAttribute("role", "alert");
      panel.prepend(el);
    }
    el.textContent = text;
  }

  function setUpChatForm() {
    const form = document.getElementById("chat-form");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const input = form.querySelector("input[name=text]");
      const text = input.value.trim();
      if (!text) return;
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        showChatError("You are offline; your message was not sent. Try again in a moment.");
        return;
      }
      socket.send(JSON.stringify({ type: "chat", text: text }));
      input.value = "";
    });
  }

  function setUpCopyFields() {
    document.querySelectorAll("input.copy").forEach(function (el) {
      el.addEventListener("focus", function () {
        el.select();
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const root = document.getElementById("game");
    const first = document.querySelector("time.countdown");
    if (first) syncClock(first.dataset.now);
    document.querySelectorAll("#chat-log li").forEach(function (li) {
      const id = Number(li.dataset.id) || 0;
      shownIds.add(id);
      lastChatId = Math.max(lastChatId, id);
      const when = li.querySelector("time[datetime]");
      if (when) when.textContent = localTime(when.getAttribute("datetime"));
    });
    setUpChatForm();
    setUpCopyFields();
    tick();
    setInterval(tick, 1000);
    if (root) {
      // With a live socket the status arrives pushed; polling stays only as a slow fallback.
      connect();
    }
    // While the socket is live the server pushes the status; skip the fallback polling then
    // (a poll has no triggering event; an explicit "refresh" has one).
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      const live = socket && socket.readyState === WebSocket.OPEN;
      if (live && event.detail.elt.id === "status" && !event.detail.requestConfig.triggeringEvent) {
        event.preventDefault();
      }
    });
    // A form's answer that is older than what the page shows (a push overtook it) is dropped.
    document.body.addEventListener("htmx:beforeSwap", function (event) {
      const phase = event.detail.xhr.getResponseHeader("X-Game-Phase");
      if (root && phase && isOlderPhase(phase, root.dataset.phase)) {
        event.detail.shouldSwap = false;
      }
    });
    document.body.addEventListener("htmx:afterSwap", panelChanged);
    document.body.addEventListener("htmx:configRequest", sendFormOverSocket);
  });
  window.addEventListener("pagehide", function () {
    pageClosing = true;
  });
})();
