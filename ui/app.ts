/** The web app's entry: defines `<node-app>` (and through it every element), which index.html holds. */
import "./shell/node-app.ts"
