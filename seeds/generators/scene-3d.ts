/** A 3D scene: scene3d.create makes the page, and the artist leaves a note on what to look at. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const scene3d: GeneratorSeed = {
  slug: "3d-scene",
  name: "3D scene",
  description: "Describe a place or an idea: get a living 3D scene in one web page, with a note on what to look at.",
  icon: "🧊",
  inputsSchema: {
    type: "object",
    required: ["description"],
    additionalProperties: false,
    properties: {
      description: {
        type: "string",
        title: "The scene",
        minLength: 5,
        maxLength: 2000,
        "x-multiline": true,
        "x-placeholder": "A small harbour at dusk, boats rocking, lanterns coming on"
      },
      title: { type: "string", title: "Title", maxLength: 120, default: "My scene" },
      procedural: {
        type: "boolean",
        title: "Draw it procedurally",
        description: "Skip the model: one of five looks chosen by the description.",
        default: false,
        "x-advanced": true
      }
    }
  },
  steps: [
    {
      id: "scene",
      title: "Build the scene {{inputs.title}}",
      role: "3d artist",
      skills: ["scene3d.create", "files.write"],
      instruction:
        "Make a 3D scene of: {{inputs.description}}\n\nCall scene3d.create once with path scene/index.html, title " +
        '"{{inputs.title}}" and procedural {{inputs.procedural}}. Then save a short note for the viewer as scene/NOTES.md ' +
        "with the sections What you see and How to look around (move the mouse: the camera drifts with it).",
      outputKind: "scene3d",
      deliverable: { file: "scene/NOTES.md", requireSections: ["What you see", "How to look around"] }
    }
  ],
  outputKinds: ["scene3d"]
}
