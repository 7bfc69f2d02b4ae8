// Runs before Scalar's bundle. Zod, inside it, probes whether it may compile
// code (`Function('')`) unless told it runs without: the page's policy
// forbids eval, so the probe would only be refused and reported.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };
