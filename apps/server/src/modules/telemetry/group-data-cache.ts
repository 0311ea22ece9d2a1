/**
 * Each device's part of the group data answer, kept between calls and written again only for
 * the devices whose data changed since (DESIGN.md section 5, group data). A part is kept with
 * the device's data version (devices.data_version, which the database moves in the same
 * transaction as anything the part is read from: migration 018): a call reads the versions of
 * its devices first, then the parts of those whose version differs from the kept one, so a
 * kept part is never older than the version it is served for. A part written from data newer
 * than its version is only written again next time.
 *
 * Parts are kept per question (range in whole hours, keys, messages): the default range moves
 * with the hour, so an hour's first call writes every part again. The oldest questions are
 * dropped once the parts kept pass `maxBytes`. Parts are kept as bytes: the answer is put
 * together by copying them (Buffer.concat) and compressed as it is, where joining 10,000
 * strings and encoding the 7.7 MB text took about 25 ms.
 */

/** A device's part of the answer as the database wrote it (UTF-8), and the data version it was read at. */
interface KeptPart {
  version: string;
  part: Buffer;
}

interface Question {
  parts: Map<string, KeptPart>;
  bytes: number;
}

export interface GroupDataCacheStats {
  /** Parts served as kept. */
  kept: number;
  /** Parts read from the database. */
  read: number;
}

export function createGroupDataCache(maxBytes: number) {
  /** Questions by key, least recently asked first (a Map keeps insertion order). */
  const questions = new Map<string, Question>();
  let bytes = 0;
  const stats: GroupDataCacheStats = { kept: 0, read: 0 };

  function questionOf(key: string): Question {
    const found = questions.get(key);
    if (found) {
      questions.delete(key);
      questions.set(key, found);
      return found;
    }
    const made: Question = { parts: new Map(), bytes: 0 };
    questions.set(key, made);
    return made;
  }

  function dropOldest(keep: Question): void {
    for (const [key, question] of questions) {
      if (bytes <= maxBytes) return;
      if (question === keep) continue;
      questions.delete(key);
      bytes -= question.bytes;
    }
  }

  return {
    /**
     * The parts of `deviceIds` (in order) for the question `key`, given each device's current
     * data version (`versions`, same order); `read` writes the parts (as text) of the devices
     * whose kept part is missing or of another version, in the order asked.
     */
    async parts(
      key: string,
      deviceIds: readonly string[],
      versions: readonly string[],
      read: (deviceIds: string[]) => Promise<string[]>,
    ): Promise<Buffer[]> {
      const question = questionOf(key);
      const parts = new Array<Buffer>(deviceIds.length);
      const missing: number[] = [];
      deviceIds.forEach((deviceId, i) => {
        const kept = question.parts.get(deviceId);
        if (kept && kept.version === versions[i]) parts[i] = kept.part;
        else missing.push(i);
      });
      stats.kept += deviceIds.length - missing.length;
      stats.read += missing.length;
      if (missing.length === 0) return parts;
      const fresh = await read(missing.map((i) => deviceIds[i]!));
      let delta = 0;
      missing.forEach((i, n) => {
        const deviceId = deviceIds[i]!;
        const part = Buffer.from(fresh[n]!);
        parts[i] = part;
        delta += part.length - (question.parts.get(deviceId)?.part.length ?? 0);
        question.parts.set(deviceId, { version: versions[i]!, part });
      });
      question.bytes += delta;
      if (questions.has(key)) bytes += delta;
      else {
        // Dropped by another call while this one read: kept again from here.
        questions.set(key, question);
        bytes += question.bytes;
      }
      dropOldest(question);
      return parts;
    },

    /** Parts served as kept and read, since the start (for tests and the benchmark). */
    stats(): GroupDataCacheStats {
      return { ...stats };
    },
  };
}

export type GroupDataCache = ReturnType<typeof createGroupDataCache>;
