// The One Night narrator (table mode, issue 28): calls the night's wake steps aloud with the
// browser's speech synthesis, one pause per role, then runs the day's clock and the
// "3, 2, 1, vote". The whole script came with the page, so nothing here needs the network.
"use strict";

(() => {
  const root = document.getElementById("narrator");
  if (!root) return;
  const script = JSON.parse(document.getElementById("narration").textContent);
  const $ = (id) => document.getElementById(id);
  const now = $("now");
  const countdown = $("countdown");
  const steps = [...document.querySelectorAll("#steps li")];
  const called = []; // the keys of the steps called, in order (the page shows it as data-called)
  // The words the script says or shows come from the page, in the reader's language
  // (data-say-* on #narrator, written by the template).
  const words = root.dataset;

  let paused = false;
  let skip = null; // resolves the current wait early
  let wakeLock = null;

  async function keepAwake() {
    // The screen must not lock in the middle of the night: the Screen Wake Lock API, where the
    // browser has it (it is released when the tab is hidden, so ask again on return).
    try {
      if ("wakeLock" in navigator) wakeLock = await navigator.wakeLock.request("screen");
    } catch (error) {
      wakeLock = null;
    }
  }
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wakeLock !== null) keepAwake();
  });

  function speaking() {
    return $("speak").checked && "speechSynthesis" in window;
  }

  function speak(text) {
    now.textContent = text;
    if (!speaking()) return Promise.resolve();
    return new Promise((resolve) => {
      const utterance = new SpeechSynthesisUtterance(text);
      // A voice for the page's language, not the browser's default one.
      if (document.documentElement.lang) utterance.lang = document.documentElement.lang;
      // Some browsers never report the end (no voice installed): do not wait for ever.
      const fallback = setTimeout(resolve, 1500 + text.length * 90);
      utterance.onend = utterance.onerror = () => {
        clearTimeout(fallback);
        resolve();
      };
      window.speechSynthesis.speak(utterance);
    });
  }

  function wait(seconds, clock) {
    // Counts down `seconds`, showing them in `clock`; honours pause; ends early on skip.
    return new Promise((resolve) => {
      let left = seconds;
      const show = () => {
        clock.textContent = left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "";
      };
      show();
      let timer = null;
      const done = () => {
        clearInterval(timer);
        skip = null;
        clock.textContent = "";
        resolve();
      };
      skip = done;
      if (left <= 0) return done();
      timer = setInterval(() => {
        if (paused) return;
        left -= 1;
        show();
        if (root.dataset.warnAt && left === Number(root.dataset.warnAt)) speak(words.sayMinute);
        if (left <= 0) done();
      }, 1000);
      root.addMoreTime = (extra) => {
        left += extra;
        show();
      };
    });
  }

  async function night() {
    $("night-start").disabled = true;
    $("night-pause").disabled = false;
    $("night-skip").disabled = false;
    document.body.classList.add("night-screen");
    keepAwake();
    await speak(script.opening);
    for (const [index, call] of script.calls.entries()) {
      const item = steps[index];
      const input = item.querySelector("input.seconds");
      const seconds = Math.max(0, Math.min(120, Number(input.value) || 0));
      item.classList.add("current");
      // What to read aloud stays in sight (the list of steps below may run off the screen).
      now.scrollIntoView({ block: "nearest" });
      called.push(call.key);
      root.dataset.called = called.join(" ");
      await speak(call.wake);
      await wait(seconds, countdown);
      await speak(call.sleep);
      item.classList.remove("current");
      item.classList.add("done");
    }
    $("night-pause").disabled = true;
    $("night-skip").disabled = true;
    document.body.classList.remove("night-screen");
    root.dataset.night = "over";
    await speak(script.closing);
    day();
  }

  async function day() {
    $("day").hidden = false;
    $("day").scrollIntoView({ block: "start" });
    root.dataset.warnAt = script.day_seconds > 90 ? "60" : "";
    await wait(script.day_seconds, $("day-clock"));
    root.dataset.warnAt = "";
    await vote();
  }

  async function vote() {
    const call = $("vote-call");
    for (const word of ["3", "2", "1", words.sayVote]) {
      call.textContent = word;
      await Promise.all([speak(word), new Promise((r) => setTimeout(r, 1000))]);
    }
    root.dataset.day = "over";
    $("reveal-sheet").scrollIntoView({ block: "start" });
  }

  $("night-start").addEventListener("click", night);
  $("night-pause").addEventListener("click", (event) => {
    paused = !paused;
    event.target.textContent = paused ? words.sayResume : words.sayPause;
    if ("speechSynthesis" in window) paused ? speechSynthesis.pause() : speechSynthesis.resume();
  });
  $("night-skip").addEventListener("click", () => {
    if ("speechSynthesis" in window) speechSynthesis.cancel();
    if (skip) skip();
  });
  $("day-pause").addEventListener("click", (event) => {
    paused = !paused;
    event.target.textContent = paused ? words.sayResume : words.sayPause;
  });
  $("day-more").addEventListener("click", () => root.addMoreTime && root.addMoreTime(60));
  $("day-vote").addEventListener("click", () => {
    if (skip) skip();
  });
})();
