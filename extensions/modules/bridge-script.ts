/**
 * The script the node puts at the top of every module's document: it gives the page
 * `window.nodeBridge.call(method, args)`, a promise of the method's result, over `postMessage`
 * to the app around the frame (ui/places/module/module-bridge.ts answers). The page's origin is
 * opaque, so messages go out addressed to any origin ("*") and the only ones taken in are those
 * from the parent window carrying this protocol's tag and the id of a call still waiting.
 */
export const bridgeProtocol = "node-module-bridge/1"

const script = `(() => {
  "use strict";
  const protocol = ${JSON.stringify(bridgeProtocol)};
  const host = window.parent;
  const waiting = new Map();
  let last = 0;
  window.addEventListener("message", (event) => {
    const answer = event.data;
    if (event.source !== host || typeof answer !== "object" || answer === null || answer.protocol !== protocol) return;
    const call = waiting.get(answer.id);
    if (call === undefined) return;
    waiting.delete(answer.id);
    if (answer.ok === true) { call.resolve(answer.result); return; }
    const failure = answer.failure || {};
    const error = new Error(String(failure.message || "The bridge call failed."));
    error.code = String(failure.code || "bridge_failed");
    error.status = typeof failure.status === "number" ? failure.status : null;
    call.reject(error);
  });
  const call = (method, args) => new Promise((resolve, reject) => {
    last += 1;
    const id = "call-" + last;
    waiting.set(id, { resolve, reject });
    host.postMessage({ protocol, id, method: String(method), args: args === undefined ? {} : args }, "*");
  });
  Object.defineProperty(window, "nodeBridge", { value: Object.freeze({ call }), enumerable: true });
})();`

/** The document with the bridge's script first in its head (after the doctype, so no quirks mode). */
export const withBridgeScript = (html: string): string => {
  const tag = `<script>${script}</script>`
  const head = /<head(\s[^>]*)?>/i.exec(html)
  if (head !== null) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length)
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)
  return doctype === null ? tag + html : doctype[0] + tag + html.slice(doctype[0].length)
}
