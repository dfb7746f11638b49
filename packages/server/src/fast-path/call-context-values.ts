import type { ContextKey, ContextValues } from "@connectrpc/connect";
import type { RpcRecord } from "../rpc-record.js";
import { rpcRecordKey } from "../rpc-record.js";

/**
 * Connect's context values (`createContextValues()`, values stored under each key's symbol on
 * the object itself) with the methods on a prototype instead of three new closures per call,
 * starting with the call's `RpcRecord`.
 */
export class CallContextValues implements ContextValues {
  [id: symbol]: unknown;

  constructor(record: RpcRecord) {
    this[rpcRecordKey.id] = record;
  }

  get<T>(key: ContextKey<T>): T {
    return key.id in this ? (this[key.id] as T) : key.defaultValue;
  }

  set<T>(key: ContextKey<T>, value: T): this {
    this[key.id] = value;
    return this;
  }

  delete(key: ContextKey<unknown>): this {
    delete this[key.id];
    return this;
  }
}
