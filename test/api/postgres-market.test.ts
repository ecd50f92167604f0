/**
 * The market's racing buys (market-races-cases.ts) on PostgreSQL (issue 16: atomic buys with
 * conserved totals): a buy locks both wallets' rows first (READ COMMITTED), so a second copy of
 * the same listing is refused as on SQLite instead of failing on the purchases' unique index.
 */
import { nodeOnPostgresWithOwner } from "../support/postgres-node.ts"
import { racingBuys } from "./market-races-cases.ts"

const START = 100
racingBuys("racing buys on PostgreSQL", nodeOnPostgresWithOwner({ startingCredits: START }), START)
