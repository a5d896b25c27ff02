/** The builder's entry point (the bundle runs this): see main.ts. */
import { runMain } from './main.ts';

runMain(process.argv.slice(2));
