/**
 * The widget layout as the desktop draws and rearranges it: the node's flat list of placements
 * (`{ id, type, column, order }`) as columns, and one move of one widget (a column left or
 * right, a place up or down) as the whole new list the desktop stores with PUT. After a move the
 * orders in every column are 0, 1, 2, … again.
 */
import { WIDGET_COLUMNS, type Widget } from "../../../extensions/desktop/contract/records.ts"

export type Move = "left" | "right" | "up" | "down"

/** The widgets of each column, top first; always `WIDGET_COLUMNS` columns. */
export const columnsOf = (widgets: ReadonlyArray<Widget>): ReadonlyArray<ReadonlyArray<Widget>> =>
  Array.from({ length: WIDGET_COLUMNS }, (_, column) =>
    widgets.filter((widget) => widget.column === column).sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : 1))
  )

/** Whether `move` can move the widget at `column`, `index` of a column holding `count`. */
export const canMove = (move: Move, column: number, index: number, count: number): boolean => {
  switch (move) {
    case "left":
      return column > 0
    case "right":
      return column < WIDGET_COLUMNS - 1
    case "up":
      return index > 0
    case "down":
      return index < count - 1
  }
}

/**
 * The layout after moving widget `id`: up and down swap it with its neighbour; left and right
 * put it in the next column at the same height (or at the bottom, when that column is shorter).
 * Null when the widget is not there or cannot move that way.
 */
export const moveWidget = (widgets: ReadonlyArray<Widget>, id: string, move: Move): ReadonlyArray<Widget> | null => {
  const columns = columnsOf(widgets).map((column) => [...column])
  const column = columns.findIndex((candidates) => candidates.some((widget) => widget.id === id))
  if (column === -1) return null
  const index = columns[column].findIndex((widget) => widget.id === id)
  if (!canMove(move, column, index, columns[column].length)) return null
  const [widget] = columns[column].splice(index, 1)
  if (move === "up" || move === "down") {
    columns[column].splice(move === "up" ? index - 1 : index + 1, 0, widget)
  } else {
    const target = move === "left" ? column - 1 : column + 1
    columns[target].splice(Math.min(index, columns[target].length), 0, widget)
  }
  return columns.flatMap((placed, columnIndex) =>
    placed.map((placedWidget, order) => ({ ...placedWidget, column: columnIndex, order }))
  )
}
