import { useState } from "react"

export function App() {
  const [count, setCount] = useState(0)
  return (
    <main className="app">
      <h1>{document.title}</h1>
      <p>A React front end with a Node server beside it. Edit apps/web/src/App.jsx and build again.</p>
      <button type="button" onClick={() => setCount((value) => value + 1)}>
        Clicked {count} {count === 1 ? "time" : "times"}
      </button>
    </main>
  )
}
