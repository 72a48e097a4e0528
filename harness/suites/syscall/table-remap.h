/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg-syscall cases: FICLONE, FICLONERANGE, FIDEDUPERANGE: seeds 007-009 (fs/remap_range.c, xfs).
 * Included into the table of sg-syscall.c (case_at), which says what each field means.
 */
	/* FICLONE / FICLONERANGE (seeds 007-009, fs/remap_range.c) */
	{
		.id = "clone_whole", .fs = XFS, .op = OP_CLONE,
		.in_size = 3 * B + 100,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.want = 0, .post = post_shared,
		.pins = "FICLONE whole file incl. partial EOF block; extents FIEMAP_EXTENT_SHARED "
			"(generic_remap_checks)",
	},
	{
		.id = "clone_range", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = 4 * B, .out_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = B, .pos_out = 2 * B, .len = 2 * B,
		.want = 0, .post = post_shared,
		.pins = "FICLONERANGE block-aligned range, rest of dest intact, shared "
			"(generic_remap_checks)",
	},
	{
		.id = "clone_len0_eof", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = 3 * B + 100,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = B, .pos_out = B, .len = 0,
		.want = 0, .post = post_shared,
		.pins = "src_length 0 means to source EOF (__generic_remap_file_range_prep)",
	},
	{
		.id = "clone_unaligned_off", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 512, .len = B,
		.want_errno = EINVAL,
		.pins = "unaligned src offset -> EINVAL (b39989009bdb; generic_remap_checks)",
		.prov = PROV_COMMIT_B39989009BDB,
	},
	{
		.id = "clone_unaligned_len", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 5000,
		.want_errno = EINVAL,
		.pins = "unaligned length not ending at EOF -> EINVAL, no silent shortening "
			"(generic_remap_checks)",
	},
	{
		.id = "clone_beyond_eof", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 2 * B, .len = B,
		.want_errno = EINVAL,
		.pins = "clone from beyond source EOF -> EINVAL (generic_remap_checks)",
	},
	{
		.id = "clone_beyond_eof_len0", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 2 * B, .len = 0,
		.want_errno = EINVAL,
		.pins = "4.20 'vfs_clone_file_prep_inodes should return EINVAL for a clone from "
			"beyond EOF' (__generic_remap_file_range_prep)",
		.prov = PROV_CLONE_BEYOND_EOF,
	},
	{
		.id = "clone_eof_partial", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = B + 1000,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B + 1000,
		.want = 0,
		.pins = "range ending at source EOF with a partial block is allowed at dest EOF "
			"(generic_remap_checks/generic_remap_check_len)",
	},
	{
		.id = "clone_eof_partial_mid", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = B + 1000, .out_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B + 1000,
		.want_errno = EINVAL,
		.pins = "07d19dc9fbe9: partial EOF block into the middle of dest -> EINVAL "
			"(generic_remap_check_len)",
		.prov = PROV_COMMIT_07D19DC9FBE9,
	},
	{
		.id = "clone_above_eof_zero", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = B, .out_size = 100,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 2 * B, .len = B,
		.prep = prep_mmap_garbage,
		.want = 0,
		.pins = "410fdc72b05a xfs: zero posteof blocks when cloning above eof "
			"(xfs_reflink_zero_posteof)",
		.prov = PROV_COMMIT_410FDC72B05A,
	},
	{
		.id = "clone_same_overlap", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_kind = K_SAME,
		.pos_out = B, .len = 2 * B,
		.want_errno = EINVAL,
		.pins = "overlapping clone within one file -> EINVAL (generic_remap_checks)",
	},
	{
		.id = "clone_same_disjoint", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_kind = K_SAME,
		.pos_out = 2 * B, .len = 2 * B,
		.want = 0,
		.pins = "disjoint clone within one file works (generic_remap_checks)",
	},
	{
		.id = "clone_dst_append", .fs = ALL, .op = OP_CLONE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_WRONLY | O_APPEND,
		.want_errno = EBADF,
		.pins = "O_APPEND dest -> EBADF before the ->remap_file_range check "
			"(do_clone_file_range/generic_file_rw_checks)",
	},
	{
		.id = "clone_dst_rdonly", .fs = ALL, .op = OP_CLONE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDONLY,
		.want_errno = EBADF,
		.pins = "read-only dest -> EBADF (do_clone_file_range/generic_file_rw_checks)",
	},
	{
		.id = "clone_dir_dst", .fs = ALL, .op = OP_CLONE,
		.in_size = B,
		.out_kind = K_DIR,
		.want_errno = EISDIR,
		.pins = "directory dest -> EISDIR (do_clone_file_range/generic_file_rw_checks)",
	},
	{
		.id = "clone_neg_off", .fs = XFS, .op = OP_CLONE_RANGE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = -4096, .len = B,
		.want_errno = EINVAL,
		.pins = "negative src_offset -> EINVAL (remap_verify_area; current mainline runs "
			"it after the EOPNOTSUPP check, so xfs only - vfs_clone_file_range)",
	},
	{
		.id = "clone_unsupported", .fs = NOREF, .op = OP_CLONE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.want_errno = EOPNOTSUPP,
		.pins = "no ->remap_file_range (ext4, tmpfs) -> EOPNOTSUPP (do_clone_file_range)",
	},
	{
		.id = "clone_cross", .fs = CROSS, .op = OP_CLONE,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.want_errno = EXDEV,
		.pins = "cross-sb clone -> EXDEV (do_clone_file_range)",
	},
	{
		.id = "clone_immutable_dst", .fs = XFS, .op = OP_CLONE, .flags = F_GUEST,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.prep = prep_immutable_out,
		.want_errno = EPERM,
		.pins = "immutable dest -> EPERM (__generic_remap_file_range_prep)",
	},
	{
		.id = "clone_swap_dst", .fs = XFS, .op = OP_CLONE, .flags = F_GUEST,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.prep = prep_swap_out,
		.want_errno = ETXTBSY,
		.pins = "active swapfile dest -> ETXTBSY (__generic_remap_file_range_prep)",
	},
	{
		.id = "clone_swap_src", .fs = XFS, .op = OP_CLONE, .flags = F_GUEST,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.prep = prep_swap_in,
		.want_errno = ETXTBSY,
		.pins = "active swapfile source -> ETXTBSY (__generic_remap_file_range_prep)",
	},
	{
		.id = "clone_suid_strip", .fs = XFS, .op = OP_CLONE, .flags = F_NOBODY,
		.in_size = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_mode = 04777,
		.want = 0, .post = post_0777,
		.pins = "seed 007 'xfs: update ctime and remove suid before cloning files': uid "
			"65534 clone strips S_ISUID (file_modified)",
		.prov = PROV_007_CLONE_SUID,
	},
	{
		.id = "clone_mtime_ctime", .fs = XFS, .op = OP_CLONE,
		.in_size = 2 * B, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.prep = prep_oldtimes,
		.want = 0, .post = post_times,
		.pins = "seed 008 'vfs: remap helper should update destination inode metadata': "
			"mtime/ctime (file_modified)",
		.prov = PROV_008_REMAP_METADATA,
	},
	{
		.id = "clone_rlimit_efbig", .fs = XFS, .op = OP_CLONE_RANGE,
		.flags = F_RLIMIT | F_SIGX,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 2 * B, .len = B, .rlimit = 2 * B,
		.want_errno = EFBIG,
		.pins = "seed 008: clone at RLIMIT_FSIZE -> SIGXFSZ + EFBIG (generic_remap_checks "
			"-> generic_write_check_limits)",
		.prov = PROV_008,
	},
	{
		.id = "clone_rlimit_short", .fs = XFS, .op = OP_CLONE_RANGE, .flags = F_RLIMIT,
		.in_size = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = B, .len = 2 * B, .rlimit = 2 * B,
		.want_errno = EINVAL,
		.pins = "clone crossing RLIMIT_FSIZE would be shortened; FICLONERANGE cannot "
			"shorten -> EINVAL (generic_remap_checks)",
	},
	{
		.id = "clone_rlimit_nothing", .fs = XFS, .op = OP_CLONE_RANGE, .flags = F_RLIMIT,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = B, .pos_out = 2 * B, .len = 0, .rlimit = 2 * B,
		.pins = "a zero-length clone at the source's EOF clones nothing: 0 and no SIGXFSZ, "
			"even at RLIMIT_FSIZE (the remap prep returns before its limit checks)",
		.prov = PROV_008,
	},

	/* FIDEDUPERANGE */
	{
		.id = "dedupe_same", .fs = XFS, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.post = post_shared,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_SAME }, .dedupe_bytes = { 2 * B },
		.pins = "identical ranges: FILE_DEDUPE_RANGE_SAME, bytes_deduped, extents shared "
			"(vfs_dedupe_file_range)",
	},
	{
		.id = "dedupe_differs", .fs = XFS, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.post = post_unshared,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_DIFFERS },
		.pins = "differing data: FILE_DEDUPE_RANGE_DIFFERS (-EBADE), nothing changed "
			"(vfs_dedupe_file_range_compare)",
	},
	{
		.id = "dedupe_zero_len", .fs = XFS, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 0,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_SAME },
		.pins = "4.20 'vfs: skip zero-length dedupe requests': len 0 -> SAME, 0 bytes "
			"(vfs_dedupe_file_range_one)",
		.prov = PROV_DEDUPE_ZERO_LEN,
	},
	{
		.id = "dedupe_eof_both", .fs = XFS, .op = OP_DEDUPE,
		.in_size = B + 1000, .out_size = B + 1000, .out_same = B + 1000,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B + 1000,
		.post = post_eof_shared,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_SAME },
		.dedupe_bytes = { B + 1000 },
		.pins = "dedupe of a partial EOF block ending at both EOFs is remapped "
			"(generic_remap_checks, generic_remap_check_len)",
		.prov = PROV_COMMIT_A5E6EA18E3D1,
	},
	{
		.id = "dedupe_eof_mid", .fs = XFS, .op = OP_DEDUPE,
		.in_size = B + 1000, .out_size = 4 * B, .out_same = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B + 1000,
		.post = post_mid_unshared,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_SAME },
		.dedupe_bytes = { B + 1000 },
		.pins = "07d19dc9fbe9: partial EOF block not remapped into mid-dest; request "
			"shortened (CAN_SHORTEN), bytes_deduped reports len "
			"(vfs_dedupe_file_range)",
		.prov = PROV_COMMIT_07D19DC9FBE9,
	},
	{
		.id = "dedupe_subblock_mid", .fs = XFS, .op = OP_DEDUPE,
		.in_size = 100, .out_size = 3 * B, .out_same = 100,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 100,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_SAME }, .dedupe_bytes = { 100 },
		.pins = "dceeb47b0ed6/07d19dc9fbe9: a dedupe shortened to 0 bytes changes "
			"nothing; dest's dirty page cache past the range survives "
			"(xfs_reflink_remap_prep stops at *len == 0)",
		.prov = PROV_COMMIT_DCEEB47B0ED6,
	},
	{
		.id = "dedupe_multi", .fs = XFS, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.prep = prep_multi,
		.ndest = 3,
		.dedupe_status = { FILE_DEDUPE_RANGE_SAME, FILE_DEDUPE_RANGE_DIFFERS, -EBADF },
		.dedupe_bytes = { 2 * B, 0, 0 },
		.pins = "several dests in one call: SAME, DIFFERS, -EBADF per info[] "
			"(vfs_dedupe_file_range)",
	},
	{
		.id = "dedupe_unsupported", .fs = NOREF, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.want_errno = EOPNOTSUPP,
		.ndest = 1,
		.pins = "seed 009 'vfs: vfs_dedupe_file_range() doesn't return EOPNOTSUPP': ioctl "
			"-> EOPNOTSUPP (vfs_dedupe_file_range)",
		.prov = PROV_009_DEDUPE_EOPNOTSUPP,
	},
	{
		.id = "dedupe_src_wronly", .fs = ALL, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_WRONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.want_errno = EINVAL,
		.ndest = 1,
		.pins = "source without FMODE_READ -> EINVAL, the first check "
			"(vfs_dedupe_file_range)",
	},
	{
		.id = "dedupe_beyond_eof", .fs = XFS, .op = OP_DEDUPE,
		.in_size = B, .out_size = 2 * B, .out_same = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.want_errno = EINVAL,
		.ndest = 1,
		.pins = "off + len > source i_size -> EINVAL (vfs_dedupe_file_range)",
	},
	{
		.id = "dedupe_rdonly_owner", .fs = XFS, .op = OP_DEDUPE, .flags = F_NOBODY,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDONLY,
		.len = 2 * B,
		.prep = prep_owner_ro,
		.ndest = 1, .dedupe_status = { FILE_DEDUPE_RANGE_SAME }, .dedupe_bytes = { 2 * B },
		.pins = "owner may dedupe into a dest opened O_RDONLY (may_dedupe_file)",
	},
	{
		.id = "dedupe_rdonly_other", .fs = XFS, .op = OP_DEDUPE, .flags = F_NOBODY,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDONLY, .out_mode = 0644,
		.len = 2 * B,
		.ndest = 1, .dedupe_status = { -EPERM },
		.pins = "non-owner without write permission, dest O_RDONLY -> status -EPERM "
			"(may_dedupe_file)",
	},
	{
		.id = "dedupe_cross", .fs = CROSS, .cross_src = XFS, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.ndest = 1, .dedupe_status = { -EXDEV },
		.pins = "reflink-capable source, dest on another sb -> status -EXDEV "
			"(vfs_dedupe_file_range_one)",
	},
	{
		.id = "dedupe_cross_noref", .fs = CROSS, .cross_src = NOREF, .op = OP_DEDUPE,
		.in_size = 2 * B, .out_size = 2 * B, .out_same = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 2 * B,
		.want_errno = EOPNOTSUPP,
		.ndest = 1,
		.pins = "source without ->remap_file_range -> ioctl EOPNOTSUPP before any dest "
			"(vfs_dedupe_file_range)",
	},
