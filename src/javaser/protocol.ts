/** The constants of java.io.ObjectStreamConstants the decoder and encoder use. */

export const STREAM_MAGIC = 0xaced;
export const STREAM_VERSION = 5;
export const BASE_WIRE_HANDLE = 0x7e0000;

export const TC_NULL = 0x70;
export const TC_REFERENCE = 0x71;
export const TC_CLASSDESC = 0x72;
export const TC_OBJECT = 0x73;
export const TC_STRING = 0x74;
export const TC_ARRAY = 0x75;
export const TC_CLASS = 0x76;
export const TC_BLOCKDATA = 0x77;
export const TC_ENDBLOCKDATA = 0x78;
export const TC_RESET = 0x79;
export const TC_BLOCKDATALONG = 0x7a;
export const TC_EXCEPTION = 0x7b;
export const TC_LONGSTRING = 0x7c;
export const TC_PROXYCLASSDESC = 0x7d;
export const TC_ENUM = 0x7e;

export const SC_WRITE_METHOD = 0x01;
export const SC_SERIALIZABLE = 0x02;
export const SC_EXTERNALIZABLE = 0x04;
export const SC_ENUM = 0x10;

const NAMES: Record<number, string> = {
  [TC_NULL]: 'TC_NULL', [TC_REFERENCE]: 'TC_REFERENCE', [TC_CLASSDESC]: 'TC_CLASSDESC', [TC_OBJECT]: 'TC_OBJECT',
  [TC_STRING]: 'TC_STRING', [TC_ARRAY]: 'TC_ARRAY', [TC_CLASS]: 'TC_CLASS', [TC_BLOCKDATA]: 'TC_BLOCKDATA',
  [TC_ENDBLOCKDATA]: 'TC_ENDBLOCKDATA', [TC_RESET]: 'TC_RESET', [TC_BLOCKDATALONG]: 'TC_BLOCKDATALONG',
  [TC_EXCEPTION]: 'TC_EXCEPTION', [TC_LONGSTRING]: 'TC_LONGSTRING', [TC_PROXYCLASSDESC]: 'TC_PROXYCLASSDESC', [TC_ENUM]: 'TC_ENUM',
};

/** A tag byte by its protocol name, for error messages. */
export function tagName(tag: number): string {
  return NAMES[tag] ?? `byte 0x${tag.toString(16).padStart(2, '0')}`;
}
