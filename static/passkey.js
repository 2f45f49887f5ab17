// frontdesk admin: passkeys (docs/security.md "Passkeys"). A form marked data-passkey-register
// or data-passkey-login asks the server for WebAuthn options (POST to the attribute's URL),
// lets the browser make or use a passkey, puts the browser's answer (JSON) in the form's
// "credential" field and submits the form as usual. Without WebAuthn the buttons stay hidden.
(function () {
  "use strict";
  if (!window.PublicKeyCredential || !navigator.credentials) return;

  function toBytes(s) {
    s = s.replace(/-/g, "+").replace(/_/g, "/");
    while (s.length % 4) s += "=";
    return Uint8Array.from(atob(s), function (c) { return c.charCodeAt(0); });
  }
  function toText(buf) {
    var s = "";
    new Uint8Array(buf).forEach(function (b) { s += String.fromCharCode(b); });
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function ids(list) {
    return (list || []).map(function (c) { return Object.assign({}, c, { id: toBytes(c.id) }); });
  }
  function answer(cred) {
    var r = cred.response, out = { id: cred.id, rawId: toText(cred.rawId), type: cred.type, response: { clientDataJSON: toText(r.clientDataJSON) } };
    if (r.attestationObject) {
      out.response.attestationObject = toText(r.attestationObject);
      if (r.getTransports) out.response.transports = r.getTransports();
    } else {
      out.response.authenticatorData = toText(r.authenticatorData);
      out.response.signature = toText(r.signature);
      if (r.userHandle) out.response.userHandle = toText(r.userHandle);
    }
    out.clientExtensionResults = cred.getClientExtensionResults ? cred.getClientExtensionResults() : {};
    return JSON.stringify(out);
  }
  function options(url) {
    return fetch(url, { method: "POST", credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (res) {
      if (!res.ok) throw new Error("options: " + res.status);
      return res.json();
    });
  }
  function wire(form, url, ceremony) {
    if (form.dataset.passkeyWired) return;
    form.dataset.passkeyWired = "1";
    form.querySelectorAll("[data-passkey-ready]").forEach(function (b) { b.hidden = false; });
    form.querySelectorAll("[data-passkey-missing]").forEach(function (p) { p.hidden = true; });
    form.addEventListener("submit", function (ev) {
      if (form.elements.credential.value) return; // the answer is in: submit for real
      ev.preventDefault();
      if (!form.reportValidity()) return;
      options(url).then(function (o) {
        var pk = o.publicKey;
        pk.challenge = toBytes(pk.challenge);
        if (ceremony === "create") {
          pk.user.id = toBytes(pk.user.id);
          pk.excludeCredentials = ids(pk.excludeCredentials);
          return navigator.credentials.create({ publicKey: pk });
        }
        pk.allowCredentials = ids(pk.allowCredentials);
        return navigator.credentials.get({ publicKey: pk, mediation: o.mediation || undefined });
      }).then(function (cred) {
        form.elements.credential.value = answer(cred);
        form.submit();
      }).catch(function (err) {
        // Cancelled or refused by the browser: the form stays as it was.
        if (window.console) console.warn("passkey: " + err.name + ": " + err.message);
      });
    });
  }
  function enhance() {
    document.querySelectorAll("form[data-passkey-register]").forEach(function (f) { wire(f, f.dataset.passkeyRegister, "create"); });
    document.querySelectorAll("form[data-passkey-login]").forEach(function (f) { wire(f, f.dataset.passkeyLogin, "get"); });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", enhance); else enhance();
})();
