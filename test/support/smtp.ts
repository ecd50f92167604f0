/**
 * A real SMTP server for mail tests: Debian's aiosmtpd (package python3-aiosmtpd) on a free
 * loopback port, delivering into a Maildir that tests read.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./free-port.ts"
import { until } from "./until.ts"

export interface Mail {
  readonly to: string
  readonly subject: string
  readonly body: string
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

const parse = (raw: string): Mail => {
  const split = raw.indexOf("\n\n")
  const head = raw.slice(0, split).replace(/\r/g, "")
  const header = (name: string) => head.match(new RegExp(`^${name}: (.*)$`, "mi"))?.[1]?.trim() ?? ""
  let body = raw.slice(split + 2)
  if (/quoted-printable/i.test(head)) {
    body = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  }
  return { to: header("To"), subject: header("Subject"), body }
}

export class SmtpServer {
  readonly port: number
  readonly maildir: string
  readonly process: ChildProcess

  private constructor(port: number, maildir: string, child: ChildProcess) {
    this.port = port
    this.maildir = maildir
    this.process = child
  }

  static async start(): Promise<SmtpServer> {
    const port = await freePort()
    const maildir = mkdtempSync(join(tmpdir(), "maildir-"))
    for (const sub of ["tmp", "new", "cur"]) mkdirSync(join(maildir, sub))
    const child = spawn(
      "/usr/bin/python3",
      ["-m", "aiosmtpd", "-n", "-l", `127.0.0.1:${port}`, "-c", "aiosmtpd.handlers.Mailbox", maildir],
      {
        stdio: ["ignore", "ignore", "pipe"]
      }
    )
    let stderr = ""
    child.stderr?.on("data", (chunk) => (stderr += chunk))
    const deadline = Date.now() + 10_000
    while (!(await accepts(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`aiosmtpd did not start (apt-get install python3-aiosmtpd): ${stderr}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return new SmtpServer(port, maildir, child)
  }

  get url() {
    return `smtp://127.0.0.1:${this.port}`
  }

  messages(): Mail[] {
    const dir = join(this.maildir, "new")
    let names: string[] = []
    try {
      names = readdirSync(dir).sort()
    } catch {}
    return names.map((name) => parse(readFileSync(join(dir, name), "utf8")))
  }

  /** Waits until a message for that address arrives (the maildir is the event). */
  waitFor(to: string, count = 1, timeoutMs = 10_000): Promise<Mail[]> {
    return until(
      `${count} mail(s) for ${to}`,
      () => {
        const mails = this.messages().filter((mail) => mail.to.includes(to))
        return mails.length >= count && mails
      },
      timeoutMs,
      25
    )
  }

  stop() {
    this.process.kill()
    rmSync(this.maildir, { recursive: true, force: true })
  }
}
