/**
 * The procedural fallback: five looks (orbit, waves, forest, city, abstract field), the look and
 * its seed chosen deterministically from the description (FNV-1a), so the same description
 * always makes the same scene. Each look is a scene body like a model's (`createScene`), drawn
 * with the page's seeded `random`, so one page template serves both.
 */
import { sceneFunctionName } from "./scene-check.ts"

export const looks = ["orbit", "waves", "forest", "city", "abstract field"] as const
export type Look = (typeof looks)[number]

/** FNV-1a, 32 bits: a stable seed from text. */
export const seedOf = (text: string): number => {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(text.trim().toLowerCase())) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash >>> 0
}

const bodies: Readonly<Record<Look, string>> = {
  orbit: `
  scene.add(new THREE.AmbientLight(0xffffff, 0.25))
  const sun = new THREE.Mesh(new THREE.SphereGeometry(1.4, 48, 24), new THREE.MeshBasicMaterial({ color: 0xffcc55 }))
  scene.add(sun, new THREE.PointLight(0xffffff, 60, 0, 1.6))
  const planets = []
  for (let i = 0; i < 6; i++) {
    const planet = new THREE.Mesh(new THREE.SphereGeometry(0.2 + random() * 0.45, 32, 16),
      new THREE.MeshStandardMaterial({ color: new THREE.Color().setHSL(random(), 0.6, 0.55) }))
    planets.push({ planet, radius: 2.6 + i * 1.3, speed: 0.2 + random() * 0.6, phase: random() * Math.PI * 2 })
    scene.add(planet)
  }
  camera.position.set(0, 6, 14)
  return (time) => {
    for (const p of planets) p.planet.position.set(Math.cos(p.phase + time * p.speed) * p.radius, 0, Math.sin(p.phase + time * p.speed) * p.radius)
  }`,
  waves: `
  scene.add(new THREE.HemisphereLight(0x88bbff, 0x002244, 1.2))
  const geometry = new THREE.PlaneGeometry(30, 30, 80, 80)
  geometry.rotateX(-Math.PI / 2)
  const sea = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: new THREE.Color().setHSL(0.55 + random() * 0.1, 0.7, 0.4), flatShading: true }))
  scene.add(sea)
  const height = 0.4 + random() * 0.6
  camera.position.set(0, 5, 12)
  const position = geometry.attributes.position
  return (time) => {
    for (let i = 0; i < position.count; i++) {
      const x = position.getX(i), z = position.getZ(i)
      position.setY(i, Math.sin(x * 0.6 + time) * height + Math.cos(z * 0.5 + time * 0.8) * height)
    }
    position.needsUpdate = true
    geometry.computeVertexNormals()
  }`,
  forest: `
  scene.add(new THREE.HemisphereLight(0xddeeff, 0x223311, 1.1))
  const ground = new THREE.Mesh(new THREE.CircleGeometry(16, 48), new THREE.MeshStandardMaterial({ color: 0x2d4a22 }))
  ground.rotation.x = -Math.PI / 2
  scene.add(ground)
  const trees = []
  for (let i = 0; i < 60; i++) {
    const tree = new THREE.Group()
    const trunk = new THREE.Mesh(new THREE.CylinderGeometry(0.08, 0.12, 0.8), new THREE.MeshStandardMaterial({ color: 0x5a3a1a }))
    const crown = new THREE.Mesh(new THREE.ConeGeometry(0.5 + random() * 0.4, 1.4 + random() * 1.2, 8),
      new THREE.MeshStandardMaterial({ color: new THREE.Color().setHSL(0.25 + random() * 0.1, 0.5, 0.3) }))
    trunk.position.y = 0.4
    crown.position.y = 1.4
    tree.add(trunk, crown)
    const angle = random() * Math.PI * 2, distance = 1.5 + random() * 13
    tree.position.set(Math.cos(angle) * distance, 0, Math.sin(angle) * distance)
    trees.push(tree)
    scene.add(tree)
  }
  camera.position.set(0, 4, 16)
  return (time) => { for (const [i, tree] of trees.entries()) tree.rotation.z = Math.sin(time + i) * 0.03 }`,
  city: `
  scene.add(new THREE.AmbientLight(0x8899bb, 0.6))
  const light = new THREE.DirectionalLight(0xffffff, 1.5)
  light.position.set(5, 10, 7)
  scene.add(light)
  const towers = []
  for (let x = -6; x <= 6; x++) {
    for (let z = -6; z <= 6; z++) {
      if (random() < 0.35) continue
      const height = 0.5 + random() * random() * 6
      const tower = new THREE.Mesh(new THREE.BoxGeometry(0.8, height, 0.8),
        new THREE.MeshStandardMaterial({ color: new THREE.Color().setHSL(0.6, 0.1, 0.3 + random() * 0.4) }))
      tower.position.set(x, height / 2, z)
      towers.push(tower)
      scene.add(tower)
    }
  }
  camera.position.set(10, 9, 14)
  return (time) => { scene.rotation.y = time * 0.05 }`,
  "abstract field": `
  const count = 1500
  const positions = new Float32Array(count * 3)
  for (let i = 0; i < positions.length; i++) positions[i] = (random() - 0.5) * 20
  const geometry = new THREE.BufferGeometry()
  geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3))
  const points = new THREE.Points(geometry, new THREE.PointsMaterial({ size: 0.08, color: new THREE.Color().setHSL(random(), 0.8, 0.65) }))
  const knot = new THREE.Mesh(new THREE.TorusKnotGeometry(1.6, 0.4, 160, 16), new THREE.MeshNormalMaterial({ wireframe: random() < 0.5 }))
  scene.add(points, knot)
  camera.position.set(0, 0, 12)
  return (time) => {
    points.rotation.y = time * 0.05
    knot.rotation.x = time * 0.3
    knot.rotation.y = time * 0.2
  }`
}

export interface ProceduralScene {
  readonly look: Look
  readonly seed: number
  readonly body: string
}

export const proceduralScene = (description: string): ProceduralScene => {
  const seed = seedOf(description)
  const look = looks[seed % looks.length]!
  return { look, seed, body: `function ${sceneFunctionName}(THREE, scene, camera, random) {${bodies[look]}\n}` }
}
