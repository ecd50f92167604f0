/**
 * The node's service worker (`/sw.js`, scope `/`), built by ui/build-pwa.ts as a classic script with the shell's files
 * named in at build time. It keeps the app shell (index.html, its script and stylesheet, the icons and manifest) in a
 * cache of the build, so the installed app opens offline (the shell then says it is offline). No answer of `/api` is
 * ever cached: those go to the network or fail.
 *
 * Web Push: a push carries `{ type: "signal", id, kind, title, priority, url }`. Unless a tab of the node is visible
 * and focused (the desktop shows the signal there), it becomes a notification with the title and the kind; a
 * decision's options become the notification's actions (read from the person's open signals, since the payload
 * carries none), and choosing one answers the signal through `POST /api/desktop/signals/:id/answer`, single-use like
 * the desktop's tap. Tapping the notification opens the signal on the desktop.
 */

/** The shell's paths and the build's hash, written in by the build. */
declare const SHELL_FILES: ReadonlyArray<string>
declare const BUILD_HASH: string

interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  readonly request: Request
  readonly resultingClientId: string
  respondWith(response: Promise<Response> | Response): void
}
interface PushEvent extends ExtendableEvent {
  readonly data: { json(): unknown } | null
}
interface NotificationEvent extends ExtendableEvent {
  readonly notification: Notification
  readonly action: string
}
interface MessageFromPage {
  readonly data: unknown
  readonly source: { readonly id: string; postMessage(message: unknown): void } | null
}
interface WindowClient {
  readonly url: string
  readonly focused: boolean
  readonly visibilityState: DocumentVisibilityState
  focus(): Promise<WindowClient>
  navigate(url: string): Promise<WindowClient | null>
}
interface WorkerScope {
  readonly location: Location
  readonly registration: ServiceWorkerRegistration & {
    showNotification(
      title: string,
      options: NotificationOptions & { actions?: ReadonlyArray<NotificationAction> }
    ): Promise<void>
  }
  readonly clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<ReadonlyArray<WindowClient>>
    openWindow(url: string): Promise<WindowClient | null>
    claim(): Promise<void>
  }
  skipWaiting(): Promise<void>
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEvent) => void): void
  addEventListener(type: "fetch", listener: (event: FetchEvent) => void): void
  addEventListener(type: "push", listener: (event: PushEvent) => void): void
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void
  addEventListener(type: "message", listener: (event: MessageFromPage) => void): void
}
interface NotificationAction {
  readonly action: string
  readonly title: string
}
interface PushedSignal {
  readonly type: "signal"
  readonly id: string
  readonly kind: string
  readonly title: string
  readonly priority: string
  readonly url: string
}

const worker = self as unknown as WorkerScope
const CACHE = `shell-${BUILD_HASH}`
const kindLabels: Record<string, string> = {
  decision: "A decision to make",
  insight: "An insight",
  reminder: "A reminder",
  alert: "An alert",
  question: "A question",
  celebration: "Something to celebrate"
}

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...SHELL_FILES]))
      .then(() => worker.skipWaiting())
  )
})

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith("shell-") && name !== CACHE).map((name) => caches.delete(name))
        )
      )
      .then(() => worker.clients.claim())
  )
})

/** The pages this worker answered with the kept shell: each asks (`served-offline?`) and is told. */
const servedOffline = new Set<string>()

/** A page of the app: the network's newest, else the kept shell (the app then says it is offline). */
const page = async (request: Request, clientId: string): Promise<Response> => {
  try {
    return await fetch(request)
  } catch {
    servedOffline.add(clientId)
    return (await caches.match("/", { cacheName: CACHE })) ?? Response.error()
  }
}

worker.addEventListener("message", (event) => {
  if (event.data !== "served-offline?" || event.source === null) return
  event.source.postMessage({ type: "served-offline", offline: servedOffline.has(event.source.id) })
})

/** A file of this build's shell: the kept copy, else the network's. */
const asset = async (request: Request): Promise<Response> =>
  (await caches.match(request, { cacheName: CACHE })) ?? fetch(request)

worker.addEventListener("fetch", (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (request.method !== "GET" || url.origin !== worker.location.origin) return
  // The API is never answered from a cache: what it says is live or nothing.
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return
  if (request.mode === "navigate") event.respondWith(page(request, event.resultingClientId))
  // The shell's own files only: a place's script is fetched as the page asks for it (offline, that place says it
  // could not be loaded).
  else if (SHELL_FILES.includes(url.pathname)) event.respondWith(asset(request))
})

const isPushedSignal = (value: unknown): value is PushedSignal =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "signal"

/** A decision's options, read from the person's open signals (the payload carries none); none when offline. */
const optionsOf = async (signal: PushedSignal): Promise<ReadonlyArray<NotificationAction>> => {
  if (signal.kind !== "decision") return []
  try {
    const answer = await fetch("/api/desktop/signals?status=open&limit=200&offset=0", { credentials: "same-origin" })
    if (!answer.ok) return []
    const open = (await answer.json()) as ReadonlyArray<{
      id: string
      options: ReadonlyArray<{ id: string; label: string }>
    }>
    const found = open.find((candidate) => candidate.id === signal.id)
    const most = (Notification as unknown as { maxActions?: number }).maxActions ?? 2
    return (found?.options ?? []).slice(0, most).map((option) => ({ action: option.id, title: option.label }))
  } catch {
    return []
  }
}

/** A visible, focused tab of the node shows the signal itself: no notification then. */
const seenInATab = async () =>
  (await worker.clients.matchAll({ type: "window", includeUncontrolled: true })).some(
    (client) => client.visibilityState === "visible" && client.focused
  )

const notify = async (signal: PushedSignal) => {
  if (await seenInATab()) return
  await worker.registration.showNotification(signal.title, {
    body: kindLabels[signal.kind] ?? signal.kind,
    tag: signal.id,
    icon: "/icon-192.png",
    badge: "/icon-192.png",
    data: { id: signal.id, url: signal.url },
    requireInteraction: signal.priority === "urgent",
    actions: await optionsOf(signal)
  })
}

worker.addEventListener("push", (event) => {
  let payload: unknown = null
  try {
    payload = event.data?.json() ?? null
  } catch {
    payload = null
  }
  if (isPushedSignal(payload)) event.waitUntil(notify(payload))
})

/** Answers through the desktop's own route: the same single-use rule as a tap on the desktop. */
const answer = (signalId: string, optionId: string) =>
  fetch(`/api/desktop/signals/${encodeURIComponent(signalId)}/answer`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ optionId })
  })

const open = async (url: string) => {
  const windows = await worker.clients.matchAll({ type: "window", includeUncontrolled: true })
  const tab = windows[0]
  if (tab === undefined) return worker.clients.openWindow(url)
  await tab.navigate(url).catch(() => null)
  return tab.focus()
}

worker.addEventListener("notificationclick", (event) => {
  const data = event.notification.data as { id?: string; url?: string } | null
  event.notification.close()
  if (typeof data?.id !== "string") return
  const work = event.action !== "" ? answer(data.id, event.action) : open(data.url ?? "/")
  event.waitUntil(work)
})
