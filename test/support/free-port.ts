/** The node's own (host/free-port.ts), where the tests have always imported it from. */
export { freePort } from "../../host/free-port.ts"
