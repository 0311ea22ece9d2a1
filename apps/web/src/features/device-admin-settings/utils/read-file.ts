/** The fraction of the file read so far (0 to 1). */
export type ReadProgress = (fraction: number) => void;

/**
 * A file's bytes as base64 (without the data: prefix), reading with progress. FileReader's data
 * URL is the browser's own encoder: no copy of the bytes in script.
 */
export function readFileAsBase64(file: File, onProgress: ReadProgress, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.onabort = () => reject(new DOMException('Reading was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => reader.abort(), { once: true });
    reader.readAsDataURL(file);
  });
}
