/**
 * A small web app: the developer writes the React component, code.scaffold_react_node scaffolds
 * and builds the rest (a front end and a Node server). Building acts on the world, so inside a
 * run the step waits for the owner's "Do it", which builds into the project's workspace and hands
 * the build's report back to the developer; the step's deliverable is the built app and its README,
 * so the run is done only with an app to preview.
 */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const smallWebApp: GeneratorSeed = {
  slug: "small-web-app",
  name: "Small web app",
  description: "Describe a small tool: get a React front end and a Node server, built once you approve, with a README.",
  icon: "🧩",
  inputsSchema: {
    type: "object",
    required: ["appName", "idea"],
    additionalProperties: false,
    properties: {
      appName: { type: "string", title: "App name", minLength: 1, maxLength: 80, "x-placeholder": "Tip splitter" },
      idea: {
        type: "string",
        title: "What it does",
        minLength: 10,
        maxLength: 2000,
        "x-multiline": true,
        "x-placeholder": "Split a restaurant bill between friends, with a tip slider."
      },
      look: { type: "string", title: "Look", enum: ["plain", "dark", "playful"], default: "plain" }
    }
  },
  steps: [
    {
      id: "app",
      title: "Build the app {{inputs.appName}}",
      role: "developer",
      skills: ["code.scaffold_react_node", "files.write", "files.read"],
      instruction:
        "Build {{inputs.appName}}: {{inputs.idea}}\nIts look: {{inputs.look}}.\n\nWrite the whole front end as one React component (export function App, " +
        'plain JSX, React hooks allowed, no other packages) and call code.scaffold_react_node with title "{{inputs.appName}}" ' +
        "and that component as app: it scaffolds a React front end and a Node server around it and builds them into " +
        "apps/web/dist/index.html. The build waits for the owner's approval and then hands you its report: if it did not " +
        "build, fix the component and call it again. Then save apps/README.md with the sections What it does and How to run it.",
      outputKind: "fullstack-app",
      deliverable: {
        file: "apps/README.md",
        requireSections: ["What it does", "How to run it"],
        build: { entry: "apps/web/dist/index.html" }
      }
    }
  ],
  outputKinds: ["fullstack-app"]
}
