// Art and identity (issue 38 item 2): the phase changes drawn (night falls, day breaks), the
// reveal's card flip and the optional night ambience. Knows no game's rules: it reads the
// panel's data-phase ("night", "day", "reveal"...) and watches it change, however the panel
// was redrawn (table.js in place, or an htmx answer). Nothing moves under
// prefers-reduced-motion; no sound plays unless the player switches the ambience on.
(function () {
  "use strict";

  const NIGHT = new Set(["night"]);
  const DAY = new Set(["day", "voting"]);
  const END = new Set(["reveal", "over"]);
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)");

  function phaseNow() {
    const panel = document.getElementById("panel");
    return panel ? panel.dataset.phase || "" : "";
  }

  function moving() {
    return !(still && still.matches);
  }

  function curtain(kind) {
    if (!moving()) return;
    document.body.dataset.phaseArt = kind;  // what the page last drew (the browser tests read it)
    document.querySelectorAll(".phase-curtain").forEach(function (old) { old.remove(); });
    const veil = document.createElement("div");
    veil.className = "phase-curtain " + kind;
    veil.setAttribute("aria-hidden", "true");
    document.body.appendChild(veil);
    veil.addEventListener("animationend", function () { veil.remove(); });
    window.setTimeout(function () { veil.remove(); }, 3000);
  }

  function reveal() {
    if (!moving()) return;
    document.body.dataset.phaseArt = "reveal";
    document.body.classList.add("revealing");
    window.setTimeout(function () { document.body.classList.remove("revealing"); }, 2500);
  }

  // --- The night's ambience: wind and crickets made by WebAudio, no sound file -------------
  let audio = null;
  let ambience = null;

  function ambienceWanted() {
    try { return localStorage.getItem("ambience") === "on"; } catch (error) { return false; }
  }

  function startAmbience() {
    if (ambience || !(window.AudioContext || window.webkitAudioContext)) return;
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
    const seconds = 4;
    const buffer = audio.createBuffer(1, audio.sampleRate * seconds, audio.sampleRate);
    const data = buffer.getChannelData(0);
    let last = 0;
    for (let i = 0; i < data.length; i++) {  // brown noise: a low, soft wind
      last = (last + 0.02 * (Math.random() * 2 - 1)) / 1.02;
      data[i] = last * 3.5;
    }
    const wind = audio.createBufferSource();
    wind.buffer = buffer;
    wind.loop = true;
    const filter = audio.createBiquadFilter();
    filter.type = "lowpass";
    filter.frequency.value = 500;
    const gain = audio.createGain();
    gain.gain.value = 0;
    gain.gain.linearRampToValueAtTime(0.25, audio.currentTime + 2);
    wind.connect(filter).connect(gain).connect(audio.destination);
    wind.start();
    const chirps = window.setInterval(function () { chirp(gain); }, 2600);
    ambience = { wind: wind, gain: gain, chirps: chirps };
  }

  function chirp(out) {
    if (!audio) return;
    for (let n = 0; n < 3; n++) {  // a cricket: three short high notes
      const at = audio.currentTime + n * 0.09 + Math.random() * 0.02;
      const tone = audio.createOscillator();
      const level = audio.createGain();
      tone.frequency.value = 4200 + Math.random() * 300;
      level.gain.setValueAtTime(0, at);
      level.gain.linearRampToValueAtTime(0.05, at + 0.01);
      level.gain.linearRampToValueAtTime(0, at + 0.05);
      tone.connect(level).connect(out);
      tone.start(at);
      tone.stop(at + 0.06);
    }
  }

  function stopAmbience() {
    if (!ambience || !audio) return;
    const sound = ambience;
    ambience = null;
    window.clearInterval(sound.chirps);
    sound.gain.gain.cancelScheduledValues(audio.currentTime);
    sound.gain.gain.setValueAtTime(sound.gain.gain.value, audio.currentTime);
    sound.gain.gain.linearRampToValueAtTime(0, audio.currentTime + 1);
    sound.wind.stop(audio.currentTime + 1.1);
  }

  function ambienceFor(phase) {
    if (ambienceWanted() && NIGHT.has(phase)) startAmbience(); else stopAmbience();
  }

  // --- Watching the phase -------------------------------------------------------------------
  let shown = phaseNow();

  function changed() {
    const phase = phaseNow();
    if (!phase || phase === shown) return;
    const before = shown;
    shown = phase;
    if (NIGHT.has(phase)) curtain("night-falls");
    else if (DAY.has(phase) && NIGHT.has(before)) curtain("day-breaks");
    else if (END.has(phase)) reveal();
    ambienceFor(phase);
  }

  const table = document.getElementById("table");
  if (table && "MutationObserver" in window) {
    new MutationObserver(changed).observe(table, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["data-phase"],
    });
  }

  const toggle = document.getElementById("ambience");
  if (toggle) {
    toggle.checked = ambienceWanted();
    toggle.addEventListener("change", function () {
      try { localStorage.setItem("ambience", toggle.checked ? "on" : "off"); } catch (error) { /* private mode */ }
      ambienceFor(phaseNow());  // a tap: the browser lets sound start now
    });
  }
})();
