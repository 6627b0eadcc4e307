/**
 * Virtual card shoes for demos, simulators and tests: a seeded shoe that emits scanner frames
 * (with misreads, noise, duplicates), a writer that paces them onto a serial port, and socat
 * pseudo-terminal pairs to carry them. Shared by the service's demo tables and the shoe simulator;
 * does I/O, so it is not one of the pure rules libraries.
 */
export * from './pty-pair';
export * from './shoe-writer';
export * from './tcp-shoe-server';
export * from './virtual-shoe';
