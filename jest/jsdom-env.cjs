// jsdom lacks some web platform globals Node has (fetch for ky, TextEncoder, streams): lend them.
const { TestEnvironment } = require('jest-environment-jsdom');

class ConsoleJsdomEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const g = this.global;
    for (const name of [
      'fetch',
      'Request',
      'Response',
      'Headers',
      'FormData',
      'TextEncoder',
      'TextDecoder',
      'ReadableStream',
      'WritableStream',
      'TransformStream',
      'structuredClone',
      'AbortController',
      'AbortSignal',
      'Blob',
    ]) {
      if (typeof globalThis[name] !== 'undefined') g[name] = globalThis[name];
    }
  }
}
module.exports = ConsoleJsdomEnvironment;
