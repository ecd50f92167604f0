/** The market's racing buys (market-races-cases.ts) on SQLite. */
import { nodeWithOwner } from "../support/node.ts"
import { racingBuys } from "./market-races-cases.ts"

const START = 100
racingBuys("racing buys", nodeWithOwner({ startingCredits: START }), START)
