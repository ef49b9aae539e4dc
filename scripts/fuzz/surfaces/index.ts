/** Every fuzz surface by name (surface.ts says what one is). */
import type { AnyMutation, Surface, SurfaceName } from '../surface.js';
import { datasetSurface } from './dataset.js';
import { encryptedSurface } from './encrypted.js';
import { parquetSurface } from './parquet.js';
import { parquetRecoverSurface, trevniRecoverSurface } from './recover.js';
import { redelmSurface } from './redelm.js';
import { textSurfaces } from './text.js';
import { trevniSurfaces } from './trevni.js';

/** A surface as the engine sees it: its mutations are data it passes back to the same surface. */
const any = <M extends AnyMutation>(s: Surface<M>) => s as unknown as Surface;

export const SURFACES: Record<SurfaceName, Surface> = {
  parquet: any(parquetSurface),
  trevni: any(trevniSurfaces.trevni),
  'trevni-v1': any(trevniSurfaces['trevni-v1']),
  'trevni-draft': any(trevniSurfaces['trevni-draft']),
  redelm: any(redelmSurface),
  'parquet-encrypted': any(encryptedSurface),
  'parquet-recover': any(parquetRecoverSurface),
  'trevni-recover': any(trevniRecoverSurface),
  dataset: any(datasetSurface),
  csv: any(textSurfaces.csv),
  jsonl: any(textSurfaces.jsonl),
  json: any(textSurfaces.json),
};
