/**
 * `npm run demo`: the keyless tour in one command. The node starts on its embedded defaults, as
 * `npm start` does, with every tier of the environment bound to its built-in demo models
 * (`LLM_DEMO`): they answer inside the node, write placeholder text that says so, and send nothing
 * off the host. One process, so Ctrl-C stops it all. The web app shows a banner while a demo model
 * is bound; binding a real provider in Settings → Models replaces them tier by tier.
 */
process.env.LLM_DEMO ??= "true"
console.log("Demo models are bound to every tier: they write placeholder text, and nothing leaves this machine.")
await import("./main.ts")
