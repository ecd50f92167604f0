// The app's Node server: serves the built front end (apps/web/dist) and a small JSON API.
import { createServer } from "node:http"
import { readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const dist = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "web", "dist")
const port = Number(process.env.PORT ?? 3000)

createServer(async (request, response) => {
  if (request.url === "/api/health") {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ ok: true }))
    return
  }
  try {
    const page = await readFile(join(dist, "index.html"))
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end(page)
  } catch {
    response.writeHead(500, { "content-type": "text/plain" })
    response.end("Build the front end first.")
  }
}).listen(port, () => console.log(`Listening on http://localhost:${port}`))
