// Loaded before the server's first module (`node --import ./src/compile-cache.js`, as `npm start`
// runs it): turns on Node's module compile cache, which keeps each module's type-stripped text and
// V8's compiled code on disk, keyed by the file's content. With every module found there, Node never
// loads its TypeScript stripper (a WebAssembly build of swc: ~17 MB of memory in each thread that
// strips a file) and compiles less at start. The first start after an install or a change fills it.
//
// JavaScript, not TypeScript: a .ts file here would load the stripper before the cache is on. The
// cache is a quiet optimization: where it cannot be written (a read-only or foreign directory) Node
// carries on without it. NODE_COMPILE_CACHE chooses its directory (by default one under the system's
// temporary directory); NODE_DISABLE_COMPILE_CACHE=1 turns it off (docs/deployment.md).
import { enableCompileCache } from 'node:module';

const { directory } = enableCompileCache();
// Worker threads (the render pool) and forked cluster workers enable it from the environment.
if (directory) process.env.NODE_COMPILE_CACHE = directory;
