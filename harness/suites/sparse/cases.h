/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg-sparse cases: one row per case, included into cases[] by sg-sparse.c
 * (struct scase and the op macros there say what each field means). Each row
 * is a sequence of ops on fresh files "a" (FA) and "b" (FB); after every op
 * (unless NOCHECK) and at the end every file is checked against its model
 * (README.md: the invariants, the rounds, and each case's provenance).
 * B is 4096 (the guest filesystems' block size and x86's page size).
 */
	{
		.id = "empty_eof", .nfiles = 1,
		.ops = {
			{ TRUNC(FA, 0) },		/* an empty file */
			{ TRUNC(FA, B + 1) },		/* all hole, size past a block */
			{ TRUNC(FA, 0) },		/* back to empty */
		},
		.what = "an empty file and an all-hole file: SEEK_DATA/SEEK_HOLE at 0, at and "
			"past EOF fail with ENXIO, at negative offsets with ENXIO or EINVAL",
		.from = "lseek(2) ENXIO; fstests seek_sanity_test test01 (generic/285), "
			"test18 (generic/448)",
	},
	{
		.id = "one_byte", .nfiles = 1,
		.ops = {
			{ W(FA, 0, 1, 1) },		/* 1 byte, delalloc */
			{ SYNC(FA) },			/* ... and flushed */
			{ W(FA, B - 1, 2, 2) },		/* 2 bytes across the block/page boundary */
		},
		.what = "SEEK_DATA at 0 of a 1-byte file is 0, dirty and after flush; a write "
			"straddling the first block boundary",
		.from = "fstests generic/706 (seek_sanity_test test22), test02 (generic/285)",
	},
	{
		.id = "hole_data_hole", .nfiles = 1,
		.ops = {
			{ W(FA, 8 * B + 100, B, 1) },	/* hole first, data off block start */
			{ W(FA, 16 * B - 10, 20, 2) },	/* across the 64 KiB boundary */
			{ TRUNC(FA, 24 * B + 123) },	/* a hole at the end, unaligned EOF */
			{ W(FA, (2LL << 20) - 5, 10, 3) },	/* across 2 MiB, after a large hole */
		},
		.what = "hole-data-hole-data layouts, unaligned data and EOF, SEEK_DATA from "
			"the middle of a large hole",
		.from = "fstests seek_sanity_test test04-06 (generic/285), generic/490",
	},
	{
		.id = "trunc_down_up", .nfiles = 1,
		.ops = {
			{ W(FA, 0, 5 * B + 300, 1) },
			{ SYNC(FA) },			/* the blocks are on disk */
			{ TRUNC(FA, 2 * B + 700) },	/* down, into the middle of a block */
			{ COLD(FA) },			/* the EOF block read back from disk */
			{ TRUNC(FA, 6 * B + 1) },	/* up: the cut-off bytes must not return */
			{ W(FA, 7 * B + 10, 10, 2) },	/* extend by writing past EOF */
			{ TRUNC(FA, 3 * B) },		/* down to a block boundary, in the hole */
		},
		.what = "ftruncate down into a block and back up: the extended part reads as "
			"zeros, also from disk; the EOF page's tail is zero",
		.from = "truncate(2); mmap(2) (the partial page past EOF is zeroed)",
	},
	{
		.id = "punch_mid", .nfiles = 1,
		.ops = {
			{ W(FA, 0, 6 * B + 2000, 1) },
			{ SYNC(FA) },
			{ PUNCH(FA, B + 100, 2 * B - 100) },	/* partial block 1, whole block 2 */
			{ PUNCH(FA, 4 * B, B) },		/* one aligned block */
			{ W(FA, 2 * B + 5, 10, 2) },		/* back into the punched hole */
			{ W(FA, 5 * B, B, 0) },			/* zeros written: may stay data */
		},
		.what = "PUNCH_HOLE|KEEP_SIZE in the middle: the range reads as zeros and "
			"SEEK_HOLE finds it; written zeros may be reported as data",
		.from = "fallocate(2) FALLOC_FL_PUNCH_HOLE; fstests generic/539 "
			"(seek_sanity_test test21)",
	},
	{
		.id = "punch_eof", .nfiles = 1,
		.ops = {
			{ W(FA, 0, 3 * B + 1000, 1) },
			{ PUNCH(FA, 2 * B + 500, 2 * B) },	/* across EOF: the size stays */
			{ SYNC(FA) },
			{ PUNCH(FA, 0, 4 * B) },		/* the whole file: only a hole left */
			{ TRUNC(FA, 5 * B) },
		},
		.what = "a punch across EOF keeps the size; a file that is all hole: SEEK_DATA "
			"fails with ENXIO (a hole at the end of the file)",
		.from = "fallocate(2) FALLOC_FL_KEEP_SIZE; lseek(2) ENXIO",
	},
	{
		.id = "punch_dirty", .nfiles = 1,
		.ops = {
			{ W(FA, 0, 4 * B, 1) },			/* dirty, never written back */
			{ PUNCH(FA, B, B) },			/* a block of dirty page cache */
			{ PUNCH(FA, 2 * B + 1, 100) },		/* inside a dirty page */
			{ W(FA, B + B / 2, 10, 2) },		/* into the punched block */
		},
		.what = "punching dirty page cache that was never written back",
		.from = "fallocate(2) FALLOC_FL_PUNCH_HOLE; lseek(2)",
	},
	{
		.id = "prealloc_dirty", .nfiles = 1,
		.ops = {
			{ FALLOC(FA, 0, 8 * B), .fl = NOCHECK },	/* unwritten, size 8 blocks */
			{ W(FA, B, B, 1), .fl = NOCHECK },		/* dirty pages over it ... */
			{ W(FA, 5 * B + 10, 100, 2) },			/* ... never read back */
			{ FALLOC_K(FA, 8 * B, 4 * B) },			/* past EOF, size stays */
			{ TRUNC(FA, 10 * B) },				/* into the preallocation */
		},
		.what = "dirty pages over unwritten extents (the rest never read): SEEK_DATA "
			"finds the data, unwritten ranges may be holes; FALLOC_FL_KEEP_SIZE past "
			"EOF then ftruncate up reads zeros",
		.from = "fstests seek_sanity_test test07/test13/test17 (generic/285, 436, 445); "
			"fallocate(2)",
	},
	{
		.id = "cfr_holes", .nfiles = 2,
		.ops = {
			{ W(FA, 0, 2 * B + 300, 1) },
			{ W(FA, 6 * B, B + 17, 2) },		/* a: a hole, EOF 7B+17 */
			{ CFR(FB, 0, FA, 0, 7 * B + 17) },	/* all of a into empty b */
			{ CFR(FB, 9 * B + 5, FA, B + 100, 2 * B) },	/* past b's EOF: a gap */
			{ CFR(FB, B, FA, 3 * B, 2 * B) },	/* a's hole over b's data */
		},
		.what = "copy_file_range of a sparse file, of a range past the destination's "
			"EOF (the gap reads zeros) and of a hole over data",
		.from = "copy_file_range(2); fstests generic/430, generic/431",
	},
	{
		.id = "cfr_eof_mid", .nfiles = 2,
		.ops = {
			{ W(FA, 0, 3 * B + 1234, 1) },
			{ W(FB, 0, 5 * B, 2) },
			{ SYNC(FB) },
			{ CFR(FB, B, FA, B, 2 * B + 1234) },	/* to a's EOF, into b's middle */
		},
		.what = "copy_file_range ending at the source's unaligned EOF into the middle of "
			"the destination: the rest of that destination block keeps its bytes",
		.from = "copy_file_range(2); 07d19dc9fbe9 (4.19's copy_file_range tries "
			"->clone_file_range first: on XFS a remap of the partial EOF block)",
		.commit = "07d19dc9fbe9",
	},
	{
		.id = "clone_whole", .nfiles = 2,
		.ops = {
			{ W(FA, 0, 3 * B + 100, 1) },
			{ W(FA, 5 * B, 10, 2) },		/* a: a hole, EOF 5B+10 */
			{ CLONE(FB, FA) },			/* FICLONE into empty b */
			{ W(FB, B + 50, 20, 3) },		/* CoW inside a shared block */
			{ PUNCH(FB, 3 * B, B) },		/* punch in the clone */
		},
		.what = "FICLONE of a sparse file with a partial EOF block; writes and punches "
			"to the clone stay private",
		.from = "ioctl_ficlone(2)",
	},
	{
		.id = "clone_trunc", .nfiles = 2,
		.ops = {
			{ W(FA, 0, 3 * B + 700, 1) },
			{ CLONE(FB, FA) },
			{ TRUNC(FB, 2 * B + 100) },		/* into a shared block: zeroing CoWs */
			{ TRUNC(FB, 4 * B) },
			{ TRUNC(FA, 5 * B + 1) },		/* a's shared EOF block */
		},
		.what = "ftruncate of a reflinked file down into a shared block and up: the "
			"tail zeroing must copy on write, the other file keeps its bytes",
		.from = "fstests generic/148; truncate(2)",
	},
	{
		.id = "clone_eof_mid", .nfiles = 2,
		.ops = {
			{ W(FA, 0, 4 * B + 700, 1) },
			{ W(FB, 0, 6 * B + 300, 2) },
			{ CLONER(FB, 2 * B, FA, B, B) },	/* aligned: must be done */
			{ CLONER(FB, B, FA, 3 * B, B + 700), .fl = MAY },	/* a's EOF block into b's middle */
		},
		.what = "FICLONERANGE of a range ending at the source's unaligned EOF into the "
			"middle of the destination: refused (EINVAL) or done, the rest of that "
			"block keeps its bytes",
		.from = "fstests generic/518; ioctl_ficlonerange(2); 07d19dc9fbe9, b39989009bdb",
		.commit = "07d19dc9fbe9 b39989009bdb",
	},
	{
		.id = "clone_above_eof", .nfiles = 2,
		.ops = {
			{ W(FA, 0, B, 1) },
			{ FALLOC_K(FA, 2 * B, B) },		/* preallocated past EOF */
			{ W(FA, 16 * B, 2560, 2) },		/* EOF mid-block: 16B+2560 */
			{ SYNC(FA) },
			{ W(FB, 0, B, 3) },
			{ CLONER(FA, 18 * B, FB, 0, B) },	/* far above a's EOF */
		},
		.what = "FICLONERANGE to well beyond the destination's EOF: everything between "
			"the old EOF and the clone reads as zeros",
		.from = "fstests generic/515; 410fdc72b05a",
		.commit = "410fdc72b05a",
	},
	{
		.id = "dedupe_eof_mid", .nfiles = 2,
		.ops = {
			{ W(FA, 0, 2 * B + 1000, 1) },
			{ W(FB, 0, B, 2) },
			{ WFROM(FB, B, FA, 0, 2 * B + 1000) },	/* b[B, 3B+1000) == a */
			{ W(FB, 3 * B + 1000, 2 * B - 1000, 3) },	/* b's size 5B */
			{ DEDUPE(FB, B, FA, 0, 2 * B) },	/* aligned: must be SAME */
			{ DEDUPE(FB, B, FA, 0, 2 * B + 1000), .fl = MAY },	/* a's EOF block into b's middle */
			{ W(FB, B + 10, 10, 4) },		/* CoW in a deduped block */
		},
		.what = "FIDEDUPERANGE of a whole file with an unaligned size into the middle of "
			"another: shortened, refused or done, nothing changes; a write after it "
			"stays private",
		.from = "fstests generic/517; ioctl_fideduperange(2); dceeb47b0ed6, 07d19dc9fbe9",
		.commit = "dceeb47b0ed6 07d19dc9fbe9",
	},
	{
		.id = "dio_eof", .nfiles = 1,
		.ops = {
			{ W(FA, 0, 2 * B + 1536, 1) },
			{ SYNC(FA) },
			{ DIO(FA, 2 * B + 1536, 512, 2) },	/* O_DIRECT at the unaligned EOF */
			{ DIO(FA, 3 * B + 512, 512, 3) },	/* past EOF, into a new block */
		},
		.what = "sub-block O_DIRECT writes at and past an unaligned EOF: the rest of the "
			"blocks reads as zeros, also through mmap past EOF and from disk",
		.from = "b450672fb66b (iomap: sub-block dio needs to zeroout beyond EOF); "
			"mmap(2); open(2) O_DIRECT",
		.commit = "b450672fb66b",
	},
