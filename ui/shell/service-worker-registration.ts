/**
 * Registers the node's service worker (`/sw.js`, scope `/`): the app shell kept for offline use and Web Push's
 * notifications. A browser without service workers (or a page not in a secure context) simply goes without.
 */
export const registerServiceWorker = (): void => {
  if (!("serviceWorker" in navigator)) return
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined)
}
