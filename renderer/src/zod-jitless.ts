import { config } from 'zod';

// The CSP forbids eval. zod probes for it when schemas are built (a CSP violation in the console) unless told not to,
// so this module is imported first, before anything that defines a schema.
config({ jitless: true });
