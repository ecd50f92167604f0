/** The web app's entry: defines `<node-app>` (and through it every element), which index.html holds. */
import "./shell/node-app.ts"
import "./shell/offline-notice.ts"
import { registerServiceWorker } from "./shell/service-worker-registration.ts"

registerServiceWorker()
