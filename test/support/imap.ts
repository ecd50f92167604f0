/**
 * A real IMAP server for mail tests: Debian's Dovecot (package dovecot-imapd) on a free loopback
 * port, its whole configuration in a temp folder: one passwd-file user, plain login without TLS
 * (loopback only), and a Maildir the test fills with messages as files, as a delivery agent would.
 * As root the mail processes run as `nobody`; otherwise as the user running the tests.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir, userInfo } from "node:os"
import { join } from "node:path"
import { freePort } from "./free-port.ts"

export interface Delivery {
  readonly from: string
  readonly subject: string
  readonly date: Date
  /** The text/plain body; with `html`, the message is multipart/alternative. */
  readonly text?: string
  readonly html?: string
  /** Delivered already read (\Seen). */
  readonly seen?: boolean
}

/** Resolves once the server greets: Dovecot accepts the connection before its login process is ready. */
const greets = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: "127.0.0.1" })
    socket.once("data", (data) => {
      socket.destroy()
      resolve(String(data).includes("ready"))
    })
    socket.once("error", () => resolve(false))
  })

const message = (to: string, delivery: Delivery) => {
  const head = [
    `From: ${delivery.from}`,
    `To: ${to}`,
    `Subject: ${delivery.subject}`,
    `Date: ${delivery.date.toUTCString()}`,
    "MIME-Version: 1.0"
  ]
  if (delivery.html === undefined) {
    return [
      ...head,
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: 8bit",
      "",
      delivery.text ?? ""
    ].join("\r\n")
  }
  const boundary = "b0undary"
  return [
    ...head,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "",
    delivery.html,
    ...(delivery.text === undefined
      ? []
      : [`--${boundary}`, "Content-Type: text/plain; charset=utf-8", "", delivery.text]),
    `--${boundary}--`,
    ""
  ].join("\r\n")
}

export class ImapServer {
  readonly port: number
  readonly user: string
  readonly password: string
  private readonly root: string
  private readonly owner: { readonly uid: number; readonly gid: number }
  private readonly process: ChildProcess
  private delivered = 0

  private constructor(
    port: number,
    user: string,
    password: string,
    root: string,
    owner: { uid: number; gid: number },
    child: ChildProcess
  ) {
    this.port = port
    this.user = user
    this.password = password
    this.root = root
    this.owner = owner
    this.process = child
  }

  static async start(user = "ada", password = "s3cret pass"): Promise<ImapServer> {
    const port = await freePort()
    const root = mkdtempSync(join(tmpdir(), "imap-"))
    // The mail processes run as another user when we are root: they must reach their home.
    chmodSync(root, 0o755)
    const me = userInfo()
    const owner = me.uid === 0 ? { uid: 65534, gid: 65534 } : { uid: me.uid, gid: me.gid }
    const home = join(root, "home", user)
    for (const sub of ["tmp", "new", "cur"]) mkdirSync(join(home, "Maildir", sub), { recursive: true })
    for (const dir of [
      join(root, "home"),
      home,
      join(home, "Maildir"),
      ...["tmp", "new", "cur"].map((sub) => join(home, "Maildir", sub))
    ]) {
      chownSync(dir, owner.uid, owner.gid)
    }
    mkdirSync(join(root, "run"))
    mkdirSync(join(root, "state"))
    writeFileSync(join(root, "passwd"), `${user}:{PLAIN}${password}::::\n`)
    // Without root, every process runs as us and no socket may belong to the dovecot group.
    const rootless =
      me.uid === 0
        ? []
        : [
            `default_internal_user = ${me.username}`,
            `default_login_user = ${me.username}`,
            ...[
              ["stats", "stats-writer"],
              ["imap-hibernate", "imap-hibernate"],
              ["dict", "dict"],
              ["dict-async", "dict-async"]
            ].flatMap(([service, socket]) => [
              `service ${service} {`,
              `  unix_listener ${socket} {`,
              "    group =",
              "  }",
              "}"
            ])
          ]
    writeFileSync(
      join(root, "dovecot.conf"),
      [
        `base_dir = ${join(root, "run")}`,
        `state_dir = ${join(root, "state")}`,
        `log_path = ${join(root, "dovecot.log")}`,
        ...rootless,
        "protocols = imap",
        "listen = 127.0.0.1",
        "ssl = no",
        "disable_plaintext_auth = no",
        "auth_mechanisms = plain login",
        // A wrong password is answered at once (the next login from the address is still braked a little).
        "auth_failure_delay = 0",
        "passdb {",
        "  driver = passwd-file",
        `  args = scheme=PLAIN username_format=%u ${join(root, "passwd")}`,
        "}",
        "userdb {",
        "  driver = static",
        `  args = uid=${owner.uid} gid=${owner.gid} home=${join(root, "home")}/%u`,
        "}",
        "mail_location = maildir:~/Maildir",
        "service imap-login {",
        "  chroot =",
        "  inet_listener imap {",
        "    address = 127.0.0.1",
        `    port = ${port}`,
        "  }",
        "  inet_listener imaps {",
        "    port = 0",
        "  }",
        "}",
        "service anvil {",
        "  chroot =",
        "}",
        ""
      ].join("\n")
    )
    const child = spawn("/usr/sbin/dovecot", ["-F", "-c", join(root, "dovecot.conf")], {
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr?.on("data", (chunk) => (stderr += chunk))
    const deadline = Date.now() + 10_000
    while (!(await greets(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        let log = ""
        try {
          log = readFileSync(join(root, "dovecot.log"), "utf8")
        } catch {}
        child.kill()
        rmSync(root, { recursive: true, force: true })
        throw new Error(`dovecot did not start (apt-get install dovecot-imapd): ${stderr} ${log}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return new ImapServer(port, user, password, root, owner, child)
  }

  /** `imap://user:pass@127.0.0.1:port`, the password percent-encoded as a URL needs. */
  get url() {
    return `imap://${encodeURIComponent(this.user)}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}`
  }

  /** Puts one message into the user's INBOX, as a file in the Maildir. */
  deliver(delivery: Delivery) {
    this.delivered += 1
    const name = `${Math.floor(delivery.date.getTime() / 1000)}.M${this.delivered}P${process.pid}.test`
    const maildir = join(this.root, "home", this.user, "Maildir")
    const path = delivery.seen === true ? join(maildir, "cur", `${name}:2,S`) : join(maildir, "new", name)
    writeFileSync(path, message(`${this.user}@example.org`, delivery))
    chownSync(path, this.owner.uid, this.owner.gid)
  }

  /** Stops Dovecot and, once it has exited (it writes its run folder as it goes), removes its folder. */
  async stop() {
    if (this.process.exitCode === null && this.process.signalCode === null) {
      const exited = new Promise((resolve) => this.process.once("exit", resolve))
      this.process.kill()
      await exited
    }
    rmSync(this.root, { recursive: true, force: true })
  }
}
