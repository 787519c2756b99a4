/**
 * protobufjs, loaded on first use. Every built-in resource asks at registration whether it has
 * a Go type (go-zero-fields.ts), which must not cost a server start the ~30 ms of evaluating
 * protobufjs: the library (CommonJS) is required synchronously the first time a message is
 * actually needed.
 */
import { createRequire } from 'node:module';
import type protobuf from 'protobufjs';

const require = createRequire(import.meta.url);
let lib: typeof protobuf | undefined;

export function protobufjs(): typeof protobuf {
  lib ??= require('protobufjs') as typeof protobuf;
  return lib;
}
