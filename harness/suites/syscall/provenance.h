/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg-syscall provenance: what a case checks, as data (LTP's .tags): the seed
 * patch of ../shared/seeds, the upstream commit(s) and the patch's subject,
 * one entry each, which the case rows (table-*.h) name with .prov. A failing
 * case prints its entry as its "# pins:" line. An entry names only what the
 * cases that point at it check: a seed's patch without its commit, a commit
 * alone, or a whole seed (008 is a merge) with no single subject.
 * Included by sg-syscall.c before the case rows.
 */
enum prov_id {
	PROV_NONE,			/* 0, the default: a case that names none */
	PROV_002_SRC_OVER_EOF,
	PROV_003_MISSING_CHECKS,
	PROV_004_STRIP_SETUID,
	PROV_005_TIMESTAMPS,
	PROV_007_CLONE_SUID,
	PROV_008,
	PROV_008_REMAP_METADATA,
	PROV_009_DEDUPE_EOPNOTSUPP,
	PROV_011_DIO_ZEROOUT,
	PROV_COMMIT_96E6E8F4A68D,
	PROV_COMMIT_ED5A7047D201,
	PROV_COMMIT_410FDC72B05A,
	PROV_COMMIT_5DAE222A5FF0,
	PROV_COMMIT_B39989009BDB,
	PROV_COMMIT_07D19DC9FBE9,
	PROV_COMMIT_DCEEB47B0ED6,
	PROV_COMMIT_A5E6EA18E3D1,
	PROV_CLONE_BEYOND_EOF,
	PROV_DEDUPE_ZERO_LEN,
	NPROV
};

static const struct prov {
	const char *seed;		/* the seed patch(es) of ../shared/seeds it checks */
	const char *commit;		/* the upstream commit(s) */
	const char *subject;		/* the patch's subject */
} provenance[NPROV] = {
	/* seeds: their patch, and its commit where the seed's change was merged */
	[PROV_002_SRC_OVER_EOF] = {
		.seed = "002", .commit = "96e6e8f4a68d",
		.subject = "vfs: copy_file_range source range over EOF should fail",
	},
	[PROV_003_MISSING_CHECKS] = {
		.seed = "003",
		.subject = "vfs: add missing checks to copy_file_range",
	},
	[PROV_004_STRIP_SETUID] = {
		.seed = "004",
		.subject = "vfs: copy_file_range needs to strip setuid bits",
	},
	[PROV_005_TIMESTAMPS] = {
		.seed = "005",
		.subject = "vfs: copy_file_range should update file timestamps",
	},
	[PROV_007_CLONE_SUID] = {
		.seed = "007",
		.subject = "xfs: update ctime and remove suid before cloning files",
	},
	[PROV_008] = {
		.seed = "008",
	},
	[PROV_008_REMAP_METADATA] = {
		.seed = "008",
		.subject = "vfs: remap helper should update destination inode metadata",
	},
	[PROV_009_DEDUPE_EOPNOTSUPP] = {
		.seed = "009",
		.subject = "vfs: vfs_dedupe_file_range() doesn't return EOPNOTSUPP",
	},
	[PROV_011_DIO_ZEROOUT] = {
		.seed = "011", .commit = "b450672fb66b",
		.subject = "iomap: sub-block dio needs to zeroout beyond EOF",
	},
	/* upstream commits alone */
	[PROV_COMMIT_96E6E8F4A68D] = { .commit = "96e6e8f4a68d" },
	[PROV_COMMIT_ED5A7047D201] = { .commit = "ed5a7047d201" },
	[PROV_COMMIT_410FDC72B05A] = { .commit = "410fdc72b05a" },
	[PROV_COMMIT_5DAE222A5FF0] = { .commit = "5dae222a5ff0 868f9f2f8e00" },
	[PROV_COMMIT_B39989009BDB] = { .commit = "b39989009bdb" },
	[PROV_COMMIT_07D19DC9FBE9] = { .commit = "07d19dc9fbe9" },
	[PROV_COMMIT_DCEEB47B0ED6] = { .commit = "dceeb47b0ed6 07d19dc9fbe9" },
	[PROV_COMMIT_A5E6EA18E3D1] = {
		.commit = "a5e6ea18e3d1",
		.subject = "fs: allow deduplication of eof block into the end of the destination file",
	},
	/* patches by subject alone */
	[PROV_CLONE_BEYOND_EOF] = {
		.subject = "vfs_clone_file_prep_inodes should return EINVAL for a clone "
			"from beyond EOF",
	},
	[PROV_DEDUPE_ZERO_LEN] = {
		.subject = "vfs: skip zero-length dedupe requests",
	},
};
