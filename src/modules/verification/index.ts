/** `oeuvre audit verify`: an org's chain, seals, batch roots and record coverage, checked from the stored rows. */
export { verifyChain, verifyChainAndSeals, type ChainReport, type FullVerifyOptions } from './verification.chain.js'
export { startRangeWalkers, type RangeWalkers } from './verification.threads.js'
export { checkBatches, type BatchLineReaders } from './verification.batches.js'
