// The table page: countdown, live panel and chat over one websocket. Forms are htmx POSTs; the
// socket brings what the server pushes and takes the chat lines the player writes (the chat
// form is posted instead while the socket is closed). This script knows no game: it swaps the
// panel the server rendered for this seat, keeps the newest version, and shows the chat
// channels it is told this seat may read. No inline script anywhere (the
// Content-Security-Policy forbids it).
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

  function afterPanelSwap(fromForm) {
    const panel = document.getElementById("panel");
    if (!panel) return;
    // A refused form's message is at the top of the panel: bring it into sight (on a phone
    // the form may be a screen further down) and let a screen reader read it.
    const error = document.getElementById("panel-error");
    if (error && fromForm) {
      error.tabIndex = -1;
      error.scrollIntoView({ block: "center" });
      error.focus({ preventScroll: true });
    }
    const label = document.getElementById("phase-label");
    if (label && panel.dataset.phaseLabel) {
      if (label.textContent !== panel.dataset.phaseLabel) announce(panel.dataset.phaseLabel);
      label.textContent = panel.dataset.phaseLabel;
    }
    markTitle(panel.dataset.attention === "yes");
    foldRoleCards(panel);
    holdBusy(panel);
    showShareButtons(panel);
    atTheTable(panel);
    followToNextTable(panel);
    syncClockFromPage();
    headClock(panel);
    tick();
  }

  // --- The role card (issue 38) ----------------------------------------------------------
  // The server draws a seat's role card open (details[data-role-card]). Once this browser has
  // shown a card, it comes folded: a chip that opens it again. A card the player opened or
  // closed keeps that state while the phase lasts; a new phase folds it again. A card that
  // changed (a copied role, a death) has a new key, so it is shown in full once more.
  let roleCards = { phase: null, open: {} };
  function foldRoleCards(panel) {
    const phase = panel.dataset.phaseLabel || "";
    const kept = phase === roleCards.phase ? roleCards.open : {};
    panel.querySelectorAll("details[data-role-card]").forEach(function (card) {
      const key = "role-seen:" + card.dataset.roleCard;
      let seen = false;
      try {
        seen = localStorage.getItem(key) === "1";
        localStorage.setItem(key, "1");
      } catch (error) { /* no storage: the card stays open */ }
      card.open = key in kept ? kept[key] : !seen;
    });
    roleCards = { phase: phase, open: kept };
  }
  document.addEventListener("toggle", function (event) {
    const card = event.target;
    if (card.matches && card.matches("details[data-role-card]")) {
      roleCards.open["role-seen:" + card.dataset.roleCard] = card.open;
    }
  }, true);

  // "Play again": once someone has opened the next table, every player's page goes there by
  // itself (once per browser tab: a refusal, say the host took the player off, is not retried).
  function followToNextTable(panel) {
    const form = panel.querySelector("form[data-follow]");
    if (!form || document.getElementById("panel-error")) return;
    const key = "followed:" + form.dataset.follow;
    try {
      if (sessionStorage.getItem(key)) return;
      sessionStorage.setItem(key, "1");
    } catch (error) { /* no storage: follow anyway, once per page */ }
    form.submit();
  }

  // --- At a table (table mode) ---------------------------------------------------------------
  // A panel may ask for the screen to stay on (data-wake-lock: the moderator's phone lies on
  // the table) and to go dark (data-dark: the night, eyes closed). It may also hold a tally
  // (form[data-tally]) whose counts follow the radios ticked, each weighing its data-weight.
  let wakeLock = null;
  function atTheTable(panel) {
    document.body.classList.toggle("night-screen", !!panel.querySelector("[data-dark]"));
    if (panel.querySelector("[data-wake-lock]") && wakeLock === null && "wakeLock" in navigator) {
      navigator.wakeLock.request("screen").then(function (lock) {
        wakeLock = lock;
        lock.addEventListener("release", function () { wakeLock = null; });
      }).catch(function () {});
    }
    panel.querySelectorAll("form[data-tally]").forEach(countTally);
  }
  document.addEventListener("visibilitychange", function () {
    const panel = document.getElementById("panel");
    if (document.visibilityState === "visible" && panel) atTheTable(panel);
  });
  function countTally(form) {
    const sums = {};
    form.querySelectorAll("input[type=radio]:checked").forEach(function (radio) {
      sums[radio.value] = (sums[radio.value] || 0) + Number(radio.dataset.weight || 1);
    });
    form.querySelectorAll("[data-tally-for]").forEach(function (span) {
      span.textContent = String(sums[span.dataset.tallyFor] || 0);
    });
  }
  document.addEventListener("change", function (event) {
    const form = event.target.closest && event.target.closest("form[data-tally]");
    if (form) countTally(form);
  });

  // The fields of a panel's forms, each by a key that names the same field in a redrawn panel:
  // the form's address (and which of the forms with that address), the field's name, and its
  // value for a radio or checkbox, or which of the fields with that name.
  function fieldsOf(root) {
    const fields = new Map();
    const forms = {};
    root.querySelectorAll("form").forEach(function (form) {
      const address = form.getAttribute("action") || "";
      forms[address] = (forms[address] || 0) + 1;
      const names = {};
      form.querySelectorAll("input, select, textarea").forEach(function (field) {
        if (!field.name || field.type === "hidden") return;
        let key = address + " " + forms[address] + " " + field.name;
        if (field.type === "radio" || field.type === "checkbox") {
          key += "=" + field.value;
        } else {
          names[field.name] = (names[field.name] || 0) + 1;
          key += "#" + names[field.name];
        }
        fields.set(key, field);
      });
    });
    return fields;
  }

  function changedByPlayer(field) {
    if (field.type === "radio" || field.type === "checkbox") {
      return field.checked !== field.defaultChecked;
    }
    if (field.tagName === "SELECT") {
      return [...field.options].some(function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }

  // What the player chose or typed in the panel and has not sent yet goes into the redrawn
  // panel (any move at the table redraws every page's panel); returns the field to focus again.
  function keepUnsent(panel, fresh, sent) {
    const redrawn = fieldsOf(fresh);
    let focus = null;
    fieldsOf(panel).forEach(function (field, key) {
      if (sent && sent.contains(field)) return; // sent: the answer shows what became of it
      const twin = redrawn.get(key);
      if (!twin || twin.type !== field.type) return;
      if (field === document.activeElement && isTyped(field)) {
        focus = keepTyping(field, twin);
        return;
      }
      if (field === document.activeElement) focus = twin;
      if (!changedByPlayer(field)) return;
      if (field.type === "radio" || field.type === "checkbox") twin.checked = field.checked;
      else twin.value = field.value;
    });
    return focus;
  }

  function isTyped(field) {
    return field.tagName === "TEXTAREA" ||
      (field.tagName === "INPUT" && field.type !== "radio" && field.type !== "checkbox");
  }

  // The field being typed in stays the very same element in the redrawn panel, with the
  // server's attributes (its limits, its default): a copy would lose where the caret was and
  // what was selected, and the next key would land in the wrong place ("0" selected, a push,
  // "1" typed: "10"; a number field cannot be told where its caret was). Returns it to focus.
  function keepTyping(field, twin) {
    const unsent = changedByPlayer(field);
    const typed = field.value;
    for (const attr of [...field.attributes]) {
      if (!twin.hasAttribute(attr.name)) field.removeAttribute(attr.name);
    }
    for (const attr of twin.attributes) {
      if (field.getAttribute(attr.name) !== attr.value) field.setAttribute(attr.name, attr.value);
    }
    if (field.tagName === "TEXTAREA") field.defaultValue = twin.defaultValue;
    if (unsent) {
      if (field.value !== typed) field.value = typed;
    } else if (field.value !== twin.value) {
      field.value = twin.value; // not touched yet: the server's new value shows
    }
    twin.replaceWith(field);
    return field;
  }

  function showPanel(html, version) {
    if (!html || version <= shownVersion()) return;
    replacePanel(html, null);
    afterPanelSwap();
  }

  function replacePanel(html, sent) {
    const panel = document.getElementById("panel");
    if (!panel) return;
    const holder = document.createElement("div");
    holder.innerHTML = html.trim();
    const fresh = holder.firstElementChild;
    if (!fresh) return;
    const focus = keepUnsent(panel, fresh, sent);
    // Redrawn in place: a form's answer on its way still finds the panel (htmx chose its target
    // when the form was sent), so it is shown if it is as new as this, and dropped if older.
    for (const attr of [...panel.attributes]) panel.removeAttribute(attr.name);
    for (const attr of fresh.attributes) panel.setAttribute(attr.name, attr.value);
    panel.replaceChildren(...fresh.childNodes);
    if (window.htmx) window.htmx.process(panel);
    if (focus) focus.focus();
  }

  // Only the public status moved (a count, the clock): the box is swapped, the rest of the
  // panel stays as it is, and the page now shows that version.
  function showStatus(html, version) {
    const panel = document.getElementById("panel");
    const status = document.getElementById("status");
    if (!html || !panel || !status || version <= shownVersion()) return;
    // A version missed: this page's own move, whose answer (the panel) has not come yet, so its
    // socket did not draw it again. Asked for instead: the page never shows a status on an
    // older panel. (The answer, if it comes after, is older than what the socket sends.)
    if (version !== shownVersion() + 1) { catchUp(); return; }
    const holder = document.createElement("div");
    holder.innerHTML = html.trim();
    const fresh = holder.firstElementChild;
    if (!fresh) return;
    status.replaceWith(fresh);
    panel.dataset.version = String(version);
    syncClockFromPage();
    tick();
  }

  // An htmx answer (a form's new panel) older than the panel shown is not swapped in.
  // A form's answer is swapped in here rather than by htmx, so that what the player typed in
  // the panel's other forms and has not sent stays (the form just sent shows what the server
  // made of it).
  document.body.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target;
    if (!target || target.id !== "panel") return;
    const html = event.detail.xhr.responseText || "";
    const match = /data-version="(\d+)"/.exec(html);
    if (match && Number(match[1]) < shownVersion()) {
      event.detail.shouldSwap = false;
      return;
    }
    if (!event.detail.shouldSwap || !match) return;
    event.detail.shouldSwap = false;
    const sent = event.detail.requestConfig ? event.detail.requestConfig.elt : null;
    replacePanel(html, sent && sent.closest ? sent.closest("form") || sent : null);
    afterPanelSwap(true);
  });
  // A form sent while the socket is open names the socket (the key its hello gave): the
  // server answers this page with the seat's panel, and its socket does not draw it again
  // (issue 39, lever 4). A second tab of the seat has a socket of its own and is drawn.
  document.body.addEventListener("htmx:configRequest", function (event) {
    if (socketKey && socket && socket.readyState === WebSocket.OPEN) {
      event.detail.headers["X-Table-Socket"] = socketKey;
    }
  });
  // An answer that did not come (the network, the server): the socket may have counted on it,
  // so the page asks for what it has missed.
  ["htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
    document.body.addEventListener(name, function () { catchUp(); });
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "panel") afterPanelSwap(true);
  });
  // Copy and share buttons of the invite link (the share sheet only where the browser has one).
  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-copy], button[data-share]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy || button.dataset.share);
    if (!field) return;
    if (button.dataset.copy) {
      field.select();
      // The button's word for done is on the page, in the reader's language (data-copied).
      const done = function () { button.textContent = button.dataset.copied; };
      if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, done);
      else { document.execCommand("copy"); done(); }
    } else if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle || document.title, url: field.value })
        .catch(function () {});
    }
  });
  function showShareButtons(root) {
    if (!navigator.share) return;
    root.querySelectorAll("button[data-share]").forEach(function (b) { b.hidden = false; });
  }
  // A form or button marked data-confirm asks first (ending the day, removing a player,
  // cancelling the game, a one-tap vote): a mis-tap changes nothing. In the capture phase, so
  // neither htmx nor the browser sends a form the player did not confirm.
  document.addEventListener("submit", function (event) {
    const button = event.submitter;
    const message = (button && button.dataset.confirm) || event.target.dataset.confirm;
    if (message && !window.confirm(message)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  // A form stays busy until its answer comes: no second click sends it twice. Forms are known
  // by the address they post to, so one that a push redraws meanwhile is drawn busy too. The
  // end of the request is taken from the request itself: once a push has replaced the form,
  // htmx's own events about it no longer reach the page.
  const posting = new Map(); // address -> requests on their way
  function holdBusy(root) {
    root.querySelectorAll("form[hx-post]").forEach(function (form) {
      if (!posting.get(form.getAttribute("hx-post"))) return;
      form.querySelectorAll("button:not([disabled])").forEach(function (b) {
        b.disabled = true;
        b.dataset.busy = "yes";
      });
    });
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    const address = event.detail.elt.getAttribute("hx-post");
    if (!address) return;
    posting.set(address, (posting.get(address) || 0) + 1);
    holdBusy(document);
    event.detail.xhr.addEventListener("loadend", function () {
      const left = (posting.get(address) || 1) - 1;
      if (left > 0) { posting.set(address, left); return; }
      posting.delete(address);
      document.querySelectorAll("form[hx-post] button[data-busy]").forEach(function (b) {
        if (b.form && b.form.getAttribute("hx-post") !== address) return;
        b.disabled = false;
        delete b.dataset.busy;
      });
    });
  });

  const title = document.title;
  // The tab tells a player in another tab that the game needs them: its title and its icon.
  const icon = document.getElementById("favicon");
  const plainIcon = icon ? icon.getAttribute("href") : "";
  let wanted = false; // whether the page already called for this seat's attention
  // A screen reader hears the page move on in a few words (#announce, a live region): the new
  // phase and, when the game newly needs this seat, the call. The panel is no live region: it
  // would read the whole panel again at every push. Words said in one redraw are said together.
  const announcer = document.getElementById("announce");
  let toAnnounce = [];
  function announce(text) {
    if (!announcer || !loaded || !text) return;
    toAnnounce.push(text);
    if (toAnnounce.length > 1) return;
    announcer.textContent = ""; // emptied first, so the same words are heard again
    setTimeout(function () {
      announcer.textContent = toAnnounce.join(announcer.dataset.sayJoin || " ");
      toAnnounce = [];
    }, 50);
  }

  function markTitle(attention) {
    document.title = attention ? "(!) " + title : title; // a mark, not a word: nothing to translate
    if (icon && icon.dataset.attention) {
      icon.setAttribute("href", attention ? icon.dataset.attention : plainIcon);
    }
    if (attention && !wanted) callForAttention();
    wanted = attention;
  }

  // When the game newly needs this seat: a short vibration where the phone has one, and a short
  // tone if the player switched the sound on (browsers allow sound only after a tap, which the
  // switch is). Nothing on the first load: the player is looking already.
  let loaded = false;
  function callForAttention() {
    if (!loaded) return;
    if (announcer) announce(announcer.dataset.sayTurn);
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    if (soundOn()) beep();
    table.dataset.called = String(Number(table.dataset.called || 0) + 1);
  }
  function soundOn() {
    try { return localStorage.getItem("sound") === "on"; } catch (error) { return false; }
  }
  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.15, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch (error) { /* no audio here */ }
  }
  const soundSwitch = document.getElementById("sound");
  if (soundSwitch) {
    soundSwitch.checked = soundOn();
    soundSwitch.addEventListener("change", function () {
      try { localStorage.setItem("sound", soundSwitch.checked ? "on" : "off"); } catch (error) { /* private mode */ }
      if (soundSwitch.checked) beep();
    });
  }

  // The header, which stays at the top while the page scrolls, repeats the panel's countdown.
  function headClock(panel) {
    const holder = document.getElementById("head-clock");
    if (!holder) return;
    const source = (panel || document).querySelector("#panel time.countdown, time.countdown");
    holder.hidden = !source;
    if (source) holder.textContent = source.textContent;
  }

  // --- Countdown ------------------------------------------------------------------------
  // The server sends the deadline and its own "now"; the offset between the two clocks keeps
  // a phone with a wrong clock right.
  let clockOffsetMs = 0;

  function syncClockFromPage() {
    const el = document.querySelector("#panel time.countdown");
    if (!el) return;
    const serverNow = Date.parse(el.dataset.now);
    if (!Number.isNaN(serverNow)) clockOffsetMs = serverNow - Date.now();
  }

  // "4:05" under an hour; "47:59:59" for the forum's two-day phases (not "2879:59").
  function formatLeft(ms) {
    const total = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(total / 3600);
    const m = Math.floor(total / 60) % 60;
    const s = String(total % 60).padStart(2, "0");
    if (h === 0) return m + ":" + s;
    return h + ":" + String(m).padStart(2, "0") + ":" + s;
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
    headClock(document.getElementById("panel"));
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
      const mark = document.createElement("span");
      mark.className = "note-mark";
      mark.textContent = log.dataset.noteLabel; // the page's words (channel.html)
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
    if (!msg.mine) countUnread();
  }

  // --- The chat's drawer on a phone (issue 38) -------------------------------------------------
  // The chat opens over the page from a button at its foot, which counts the lines that came
  // while it was shut. On a wide screen the chat is always beside the game (the CSS).
  const chatToggle = document.getElementById("chat-toggle");
  const unreadBadge = document.getElementById("chat-unread");
  let unread = 0;
  function chatShown() {
    const chat = document.getElementById("chat");
    return !!chat && chat.getClientRects().length > 0;
  }
  function countUnread() {
    if (!unreadBadge || chatShown()) return;
    unread += 1;
    unreadBadge.textContent = String(unread);
    unreadBadge.hidden = false;
  }
  function openChat(open) {
    const chat = document.getElementById("chat");
    if (!chat || !chatToggle) return;
    table.classList.toggle("chat-open", open);
    chatToggle.setAttribute("aria-expanded", String(open));
    if (open) {
      unread = 0;
      unreadBadge.hidden = true;
      unreadBadge.textContent = "";
      // Into the drawer, on its close button: no phone keyboard jumps up over the lines.
      const close = chat.querySelector(".chat-close");
      if (close) close.focus();
      chat.querySelectorAll(".chat-log").forEach(function (log) { log.scrollTop = log.scrollHeight; });
    } else {
      chatToggle.focus();
    }
  }
  if (chatToggle) {
    table.classList.add("drawer");
    chatToggle.setAttribute("role", "button");
    chatToggle.setAttribute("aria-expanded", "false");
    const chat = document.getElementById("chat");
    if (chat) {
      const close = document.createElement("button");
      close.type = "button";
      close.className = "chat-close small secondary";
      close.textContent = chatToggle.dataset.close; // the page's words (page.html)
      chat.prepend(close);
      close.addEventListener("click", function () { openChat(false); });
    }
    chatToggle.addEventListener("click", function (event) {
      event.preventDefault();
      openChat(!table.classList.contains("chat-open"));
    });
    chatToggle.addEventListener("keydown", function (event) {
      if (event.key !== " ") return; // a button's key too (Enter already clicks a link)
      event.preventDefault();
      openChat(!table.classList.contains("chat-open"));
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && table.classList.contains("chat-open") && !window.matchMedia("(min-width: 1100px)").matches) {
        openChat(false);
      }
    });
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

  // --- Chat lines over the socket (issue 39) ---------------------------------------------
  // While the socket is open, the chat form's line goes over it instead of a POST; the server
  // checks it as it checks the form (games/tables/consumers.py) and answers with its `ref`. The
  // text stays in the box until then: taken, the box is emptied (unless the player typed on);
  // refused, it stays, with why. Without an open socket the form is posted (htmx) as before.
  // A line is never sent again by the page: one whose answer a lost socket took with it counts
  // as taken if the line itself came back, or is looked for in the reconnected socket's hello;
  // if it is in neither, its text is still in the box for the player to send.
  let chatRef = 0;
  const waiting = new Map(); // ref -> { channel, text, echoed }
  let unanswered = []; // lines sent on a socket that closed before it answered
  function chatBox(channel) {
    return document.querySelector('.chat-box[data-channel="' + CSS.escape(channel) + '"]');
  }
  function chatSending(box, on) {
    const button = box && box.querySelector("form.chat-form button[type=submit]");
    if (!button) return;
    button.disabled = on;
    if (on) button.dataset.sending = "yes"; else delete button.dataset.sending;
  }
  function chatSent(box, text) {
    if (!box) return;
    const input = box.querySelector("form.chat-form input[name=text]");
    if (input && input.value === text) input.value = "";
    const error = box.querySelector(".chat-error");
    if (error) error.remove();
  }
  function chatRefused(box, message, closed) {
    if (!box) return;
    const form = box.querySelector("form.chat-form");
    let error = box.querySelector(".chat-error");
    if (closed) {
      // As the form's answer does: the form is hidden (its text kept) and the page says why.
      const note = box.querySelector(".chat-closed");
      if (form) form.hidden = true;
      if (note) { note.textContent = message; note.hidden = false; }
      if (error) error.remove();
      return;
    }
    if (!error) {
      error = document.createElement("p");
      error.className = "error chat-error";
      error.setAttribute("role", "alert");
      box.append(error);
    }
    error.textContent = message;
  }
  function chatAnswer(msg) {
    const sent = waiting.get(msg.ref);
    if (!sent) return;
    waiting.delete(msg.ref);
    const box = chatBox(sent.channel);
    chatSending(box, false);
    if (msg.type === "chat-sent") {
      if (msg.line) addChatLine(msg.line);
      chatSent(box, sent.text);
    } else {
      chatRefused(box, String(msg.message || ""), msg.closed === true);
    }
  }
  // A line of this seat's that came back over the socket before its answer: the one sent.
  function chatEchoed(msg) {
    if (!msg.mine) return;
    for (const sent of waiting.values()) {
      if (!sent.echoed && sent.channel === msg.channel && sent.text.trim() === msg.text) {
        sent.echoed = true;
        return;
      }
    }
  }
  function chatSocketLost() {
    waiting.forEach(function (sent) {
      const box = chatBox(sent.channel);
      chatSending(box, false);
      if (sent.echoed) chatSent(box, sent.text);
      else unanswered.push(sent);
    });
    waiting.clear();
  }
  // The reconnected socket's hello holds this seat's lines stored meanwhile: a line whose
  // answer was lost and is among them was taken.
  function chatFoundInHello(history) {
    unanswered.forEach(function (sent) {
      const found = history.some(function (line) {
        return line.mine && line.channel === sent.channel && line.text === sent.text.trim();
      });
      if (found) chatSent(chatBox(sent.channel), sent.text);
    });
    unanswered = [];
  }
  // In the capture phase, before htmx hears of the submit (and after the data-confirm check).
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (event.defaultPrevented || !form.matches || !form.matches("form.chat-form")) return;
    if (!socket || socket.readyState !== WebSocket.OPEN) return; // posted by htmx
    const box = form.closest(".chat-box");
    const channel = form.elements.channel ? form.elements.channel.value : "public";
    const text = form.elements.text ? form.elements.text.value : "";
    const button = box && box.querySelector("button[data-sending]");
    event.preventDefault();
    event.stopPropagation();
    if (button) return; // the line before is on its way: Enter twice sends it once
    const ref = "c" + (++chatRef);
    waiting.set(ref, { channel: channel, text: text });
    chatSending(box, true);
    socket.send(JSON.stringify({ type: "chat", ref: ref, channel: channel, text: text }));
  }, true);

  // --- The socket -----------------------------------------------------------------------
  let socket = null;
  let socketKey = ""; // the open socket's key (its hello's "socket")
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
      if (msg.type === "status") {
        showStatus(msg.html, Number(msg.version));
      } else if (msg.type === "hello" || msg.type === "panel") {
        if (msg.type === "hello" && typeof msg.socket === "string") socketKey = msg.socket;
        showPanel(msg.panel, Number(msg.version));
        showChannels(msg.channel_state);
        (msg.history || []).forEach(addChatLine);
        if (msg.type === "hello") chatFoundInHello(msg.history || []);
      } else if (msg.type === "chat") {
        addChatLine(msg);
        chatEchoed(msg);
      } else if (msg.type === "chat-sent" || msg.type === "chat-refused") {
        chatAnswer(msg);
      }
    });
    socket.addEventListener("close", function (event) {
      socket = null;
      socketKey = "";
      chatSocketLost();
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
  loaded = true;
  setInterval(tick, 1000);
  connect();
})();
