// Settings → "Look inside secure traffic": the local CA's stage (none → ready → unavailable), its
// facts, how to use it, Download, Remake and Remove (each asked first), and the tls-inspection
// switch. Everything it says and offers is `ca show --json`'s "setup" (CertificateSetupCard in
// Swift), read from /api/ca each time the card is drawn — the stage is never kept here.

import { get, post } from "./api.js";
import { h, replace, errorCard, facts, when, downloadLink } from "./dom.js";

/** The card, drawn once /api/ca answers. `changed(message)` redraws the screen after an action
 *  (so this card reads /api/ca again, and the rest of Settings sees the new setting). */
export function certificateCard(changed) {
  const section = h("section", { class: "card ca-card", "aria-labelledby": "ca-title", "aria-busy": "true" },
    h("h2", { id: "ca-title" }, "Look inside secure traffic"),
    h("p", { class: "hint" }, "Reading the certificate…"));
  draw(section, changed);
  return section;
}

async function draw(section, changed) {
  let ca;
  try {
    ca = await get("/api/ca");
  } catch (error) {
    replace(section, errorCard("The certificate could not be read", error, () => changed()));
    section.removeAttribute("aria-busy");
    return;
  }
  const setup = ca.setup;
  const offered = new Set(setup.actions);
  replace(section,
    h("h2", { id: "ca-title" }, "Look inside secure traffic"),
    h("h3", { class: "ca-stage", "data-stage": setup.stage }, setup.title),
    setup.sentences.map((sentence, index) =>
      h("p", { class: setup.stage === "unavailable" && index === 0 ? "ca-problem" : null, role: setup.stage === "unavailable" && index === 0 ? "alert" : null },
        setup.stage === "unavailable" && index === 0 ? h("span", { class: "icon", "aria-hidden": "true" }, "⚠ ") : null, sentence)),
    ca.fingerprintSHA256 ? facts([
      ["Subject", ca.subject],
      ["SHA-256 fingerprint", h("code", { class: "ca-fingerprint" }, ca.fingerprintSHA256)],
      ["Valid", `${when(ca.notBefore)} to ${when(ca.notAfter)}`],
      ["Kept in", h("code", {}, ca.certificate)],
    ], "facts ca-facts") : null,
    setup.usage ? h("p", {}, "Run a command with inspection: ", h("code", { class: "ca-usage" }, setup.usage)) : null,
    inspectionSwitch(ca, setup, changed),
    h("div", { class: "actions" },
      offered.has("create") ? h("button", { type: "button", on: { click: () => act("/api/ca/create", changed, "No certificate was made") } },
        "Create the certificate") : null,
      offered.has("download") ? downloadLink("/api/ca/root.pem", "tunnelvision-root-ca.pem", "Download the certificate (PEM)") : null,
      offered.has("download") ? downloadLink("/api/ca/root.der", "tunnelvision-root-ca.der", "Download the certificate (DER)") : null,
      offered.has("remake") ? h("button", { type: "button", on: { click: () => {
        if (confirm(setup.remakeQuestion)) act("/api/ca/remake", changed, "The certificate was not remade");
      } } }, "Remake the certificate") : null,
      offered.has("remove") ? h("button", { type: "button", class: "danger", on: { click: () => {
        if (confirm(setup.removeQuestion)) act("/api/ca/remove", changed, "The certificate was not removed");
      } } }, "Remove the certificate") : null),
    offered.has("download") ? h("p", { class: "hint" }, "The download holds the root certificate only; its private key never leaves this machine.") : null);
  section.removeAttribute("aria-busy");
}

function inspectionSwitch(ca, setup, changed) {
  const on = ca.inspection === true;
  // On can be chosen only over a usable CA; off is always offered, so it is never locked on.
  const disabled = !on && !setup.canTurnInspectionOn;
  const box = h("input", { type: "checkbox", role: "switch", id: "ca-inspection", checked: on, "aria-checked": String(on), disabled,
    "aria-describedby": setup.switchHint ? "ca-switch-hint" : null });
  box.addEventListener("change", async () => {
    const value = box.checked ? "on" : "off";
    box.setAttribute("aria-checked", String(box.checked));
    try {
      const result = await post("/api/settings", { setting: "tls-inspection", value });
      changed(`Look inside secure traffic: ${value}.${result.tunnel ? " " + result.tunnel + "." : ""}`);
    } catch (error) {
      changed(`Look inside secure traffic was not changed: ${error.message}`);
    }
  });
  return h("div", { class: "field ca-switch" },
    box, h("label", { for: "ca-inspection" }, "Look inside secure traffic"),
    ca.inspection === undefined ? h("p", { class: "hint" }, "Whether it is on is not known: the settings file cannot be read.") : null,
    setup.switchHint ? h("p", { class: "hint", id: "ca-switch-hint" }, setup.switchHint) : null);
}

async function act(path, changed, failed) {
  try {
    const answer = await post(path);
    changed((answer.lines ?? []).join(" "));
  } catch (error) {
    changed(`${failed}: ${error.message}`);
  }
}
