// What other folders may name: reading a challenge, checking an agent's quote, and the quote history kept and read.
export { parseChallenge, priceUsdcOf, selectAccept, type Challenge, type PriceContext } from "./challenge.js";
export { checkQuote, type QuoteCheck } from "./check.js";
export { observedQuotes } from "./read-spans.js";
export { probeSightings, recordQuotes, type QuoteSighting } from "./record.js";
