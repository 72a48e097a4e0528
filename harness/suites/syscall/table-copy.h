/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg-syscall cases: copy_file_range(2): the copies, the checks of seeds 002-006 (fs/read_write.c).
 * Included into the table of sg-syscall.c (case_at), which says what each field means.
 */
	/* copy_file_range: basic copies */
	{
		.id = "cfr_whole", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = 3 * B + 123,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 3 * B + 123,
		.want = 3 * B + 123,
		.pins = "copy_file_range(2) whole file, raw syscall; offsets advanced, f_pos "
			"untouched (SYSCALL_DEFINE6 copy_file_range)",
	},
	{
		.id = "cfr_whole_libc", .fs = ALL, .op = OP_CFR_LIBC, .flags = F_LOOP,
		.in_size = 3 * B + 123,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 3 * B + 123,
		.want = 3 * B + 123,
		.pins = "glibc copy_file_range() wrapper, same contract as the raw syscall (LTP "
			"copy_file_range01 variants)",
	},
	{
		.id = "cfr_partial", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = 20480, .out_size = 8192,	/* bytes: the offsets' room at any B */
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 1000, .pos_out = 3000, .len = 5000,
		.want = 5000,
		.pins = "unaligned partial copy into the middle of dest; xfs falls back from "
			"remap to do_splice_direct (vfs_copy_file_range)",
	},
	{
		.id = "cfr_aligned", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = 4 * B, .out_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = B, .pos_out = 2 * B, .len = 2 * B,
		.want = 2 * B,
		.pins = "block-aligned copy: ->remap_file_range(REMAP_FILE_CAN_SHORTEN) on xfs, "
			"splice elsewhere (vfs_copy_file_range)",
	},
	{
		.id = "cfr_null_off", .fs = ALL, .op = OP_CFR_NULL, .flags = F_LOOP,
		.in_size = 8199, .out_size = 100,	/* bytes: the offsets' room at any B */
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 100, .pos_out = 200, .len = 4000,
		.want = 4000,
		.pins = "NULL offsets use and advance f_pos of both files (SYSCALL_DEFINE6 "
			"copy_file_range)",
	},
	{
		.id = "cfr_short_eof", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = B + 500,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 300, .len = 10 * B,
		.want = B + 200, .post = post_again_zero,
		.pins = "len past source EOF: short copy to EOF then 0; seed 002 made this "
			"EINVAL, merged 5.3 96e6e8f4a68d shortens (generic_copy_file_checks)",
		.prov = PROV_002_SRC_OVER_EOF,
	},
	{
		.id = "cfr_len_huge", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = 2 * B + 1,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 1ULL << 63,
		.want = 2 * B + 1,
		.pins = "len >= 2^63 is shortened to EOF before rw_verify_area, so no EINVAL "
			"(generic_copy_file_checks)",
	},
	{
		.id = "cfr_at_eof", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = B, .len = 100,
		.want = 0,
		.pins = "pos_in == i_size returns 0 (96e6e8f4a68d; seed 002's EINVAL was not "
			"merged) (generic_copy_file_checks)",
		.prov = PROV_002_SRC_OVER_EOF,
	},
	{
		.id = "cfr_past_eof", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 3 * B, .len = 100,
		.want = 0,
		.pins = "pos_in > i_size returns 0, dest untouched (96e6e8f4a68d) "
			"(generic_copy_file_checks)",
		.prov = PROV_COMMIT_96E6E8F4A68D,
	},
	/* bad descriptors and modes */
	{
		.id = "cfr_src_wronly", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_WRONLY, .out_flags = O_RDWR,
		.len = B,
		.want_errno = EBADF,
		.pins = "seed 003: source without FMODE_READ -> EBADF (generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_dst_rdonly", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDONLY,
		.len = B,
		.want_errno = EBADF,
		.pins = "seed 003: dest without FMODE_WRITE -> EBADF (generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_dst_append", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_WRONLY | O_APPEND,
		.len = B,
		.want_errno = EBADF,
		.pins = "seed 003: O_APPEND dest -> EBADF (generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_closed_fd", .fs = ALL, .op = OP_CFR,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .in_kind = K_CLOSED,
		.len = B,
		.want_errno = EBADF,
		.pins = "closed fd_in -> EBADF (SYSCALL_DEFINE6 copy_file_range fdget)",
	},
	{
		.id = "cfr_flags", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B, .cfr_flags = 1,
		.want_errno = EINVAL,
		.pins = "flags != 0 -> EINVAL (SYSCALL_DEFINE6 copy_file_range; COPY_FILE_SPLICE "
			"is kernel-internal)",
	},
	/* non-regular files */
	{
		.id = "cfr_dir_src", .fs = ALL, .op = OP_CFR,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .in_kind = K_DIR,
		.len = B,
		.want_errno = EISDIR,
		.pins = "seed 003: directory source -> EISDIR (generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_dir_dst", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.out_kind = K_DIR,
		.len = B,
		.want_errno = EISDIR,
		.pins = "seed 003: directory dest -> EISDIR, checked before FMODE_WRITE "
			"(generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_pipe_src", .fs = ALL, .op = OP_CFR,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .in_kind = K_PIPE,
		.len = B,
		.want_errno = EINVAL,
		.pins = "seed 003: pipe source -> EINVAL (!S_ISREG, generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_pipe_dst", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.out_kind = K_PIPE,
		.len = B,
		.want_errno = EINVAL,
		.pins = "seed 003: pipe dest -> EINVAL (!S_ISREG, generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_chrdev_dst", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.out_kind = K_CHR,
		.len = B,
		.want_errno = EINVAL,
		.pins = "seed 003: char device (1:3 null) dest -> EINVAL (generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_socket_dst", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.out_kind = K_SOCK,
		.len = B,
		.want_errno = EINVAL,
		.pins = "seed 003: AF_UNIX socket dest -> EINVAL (generic_file_rw_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	/* overflow and negative offsets */
	{
		.id = "cfr_overflow_in", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = 1, .len = ~0ULL,
		.want_errno = EOVERFLOW,
		.pins = "seed 003: pos_in + len wraps -> EOVERFLOW (generic_copy_file_checks "
			"'Ensure offsets don't wrap')",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_overflow_out", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 1LL << 62, .len = ~0ULL - (1ULL << 61),
		.want_errno = EOVERFLOW,
		.pins = "seed 003: pos_out + len wraps -> EOVERFLOW (generic_copy_file_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_neg_in", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = -4096, .len = 100,
		.want_errno = EINVAL,
		.pins = "negative pos_in -> EINVAL from rw_verify_area(READ) (vfs_copy_file_range)",
	},
	{
		.id = "cfr_neg_out", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = -4096, .len = 100,
		.want_errno = EINVAL,
		.pins = "negative pos_out -> EINVAL from rw_verify_area (vfs_copy_file_range)",
	},
	{
		.id = "cfr_neg_wrap", .fs = ALL, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_in = -1, .len = 100,
		.want_errno = EOVERFLOW,
		.pins = "pos_in -1: (u64)pos_in + len wraps, so EOVERFLOW precedes "
			"rw_verify_area's EINVAL (generic_copy_file_checks)",
	},
	/* same file */
	{
		.id = "cfr_same_overlap", .fs = ALL, .op = OP_CFR,
		.in_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_kind = K_SAME,
		.pos_out = B, .len = 2 * B,
		.want_errno = EINVAL,
		.pins = "seed 003: overlapping ranges in one file -> EINVAL "
			"(generic_copy_file_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_same_disjoint", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = 4 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_kind = K_SAME,
		.pos_out = 2 * B, .len = 2 * B,
		.want = 2 * B,
		.pins = "non-overlapping ranges of one file copy correctly "
			"(generic_copy_file_checks)",
	},
	/* limits */
	{
		.id = "cfr_rlimit_efbig", .fs = ALL, .op = OP_CFR, .flags = F_RLIMIT | F_SIGX,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 2 * B, .len = B, .rlimit = 2 * B,
		.want_errno = EFBIG,
		.pins = "seed 003: pos_out >= RLIMIT_FSIZE -> SIGXFSZ + EFBIG "
			"(generic_write_check_limits)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_rlimit_short", .fs = ALL, .op = OP_CFR, .flags = F_RLIMIT,
		.in_size = 2 * B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = B, .len = 2 * B, .rlimit = 2 * B,
		.want = B,
		.pins = "pos_out < RLIMIT_FSIZE < end: count shortened to the limit, no signal "
			"(generic_write_check_limits)",
	},
	{
		.id = "cfr_maxbytes_efbig", .fs = ALL, .op = OP_CFR, .flags = F_NOIMG,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B,
		.prep = prep_maxbytes_at,
		.want_errno = EFBIG,
		.pins = "seed 003: pos_out == s_maxbytes -> EFBIG (generic_write_check_limits)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_maxbytes_short", .fs = ALL, .op = OP_CFR, .flags = F_NOIMG,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B,
		.prep = prep_maxbytes_below,
		.want = 100, .post = post_maxbytes,
		.pins = "pos_out = s_maxbytes-100: short copy of 100 bytes "
			"(generic_write_check_limits shortens count)",
	},
	/* immutable and swap */
	{
		.id = "cfr_immutable_dst", .fs = ALL, .op = OP_CFR, .flags = F_GUEST,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B,
		.prep = prep_immutable_out,
		.want_errno = EPERM,
		.pins = "seed 003: IS_IMMUTABLE dest -> EPERM (generic_copy_file_checks; fstests "
			"generic/553)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_immutable_src", .fs = ALL, .op = OP_CFR, .flags = F_GUEST | F_LOOP,
		.in_size = B + 9,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B + 9,
		.prep = prep_immutable_in,
		.want = B + 9,
		.pins = "immutable source is readable: copy succeeds, only inode_out is checked "
			"(generic_copy_file_checks)",
	},
	{
		.id = "cfr_swap_dst", .fs = ALL, .op = OP_CFR, .flags = F_GUEST,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B,
		.prep = prep_swap_out,
		.want_errno = ETXTBSY,
		.pins = "seed 003: active swapfile dest -> ETXTBSY (generic_copy_file_checks; "
			"fstests generic/554)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	{
		.id = "cfr_swap_src", .fs = ALL, .op = OP_CFR, .flags = F_GUEST,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B,
		.prep = prep_swap_in,
		.want_errno = ETXTBSY,
		.pins = "seed 003: active swapfile source -> ETXTBSY, IS_SWAPFILE(inode_in) "
			"(generic_copy_file_checks)",
		.prov = PROV_003_MISSING_CHECKS,
	},
	/* privileges */
	{
		.id = "cfr_suid_strip", .fs = ALL, .op = OP_CFR, .flags = F_NOBODY | F_LOOP,
		.in_size = B + 10, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_mode = 04777,
		.len = B + 10,
		.want = B + 10, .post = post_0777,
		.pins = "seed 004: uid 65534 copy into setuid file strips S_ISUID "
			"(file_remove_privs, setattr_should_drop_suidgid)",
		.prov = PROV_004_STRIP_SETUID,
	},
	{
		.id = "cfr_sgid_strip", .fs = ALL, .op = OP_CFR, .flags = F_NOBODY | F_LOOP,
		.in_size = B + 10, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_mode = 02777,
		.len = B + 10,
		.want = B + 10, .post = post_0777,
		.pins = "seed 004: setgid + group-exec stripped for uid 65534 "
			"(setattr_should_drop_sgid)",
		.prov = PROV_004_STRIP_SETUID,
	},
	{
		.id = "cfr_sgid_nogx_outgroup", .fs = ALL, .op = OP_CFR, .flags = F_NOBODY | F_LOOP,
		.in_size = 100, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_mode = 02767,
		.len = 100,
		.want = 100, .post = post_0767,
		.pins = "setgid without g+x dropped when caller not in group (6.2 ed5a7047d201, "
			"setattr_should_drop_sgid)",
		.prov = PROV_COMMIT_ED5A7047D201,
	},
	{
		.id = "cfr_sgid_nogx_ingroup", .fs = ALL, .op = OP_CFR, .flags = F_NOBODY | F_LOOP,
		.in_size = 100, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 100,
		.prep = prep_sgid_ingroup,
		.want = 100, .post = post_02767,
		.pins = "setgid without g+x kept when caller is in the group "
			"(setattr_should_drop_sgid)",
	},
	{
		.id = "cfr_suid_root_keeps", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = 100, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .out_mode = 04777,
		.len = 100,
		.want = 100, .post = post_04777,
		.pins = "root's CAP_FSETID keeps S_ISUID (setattr_should_drop_suidgid capable "
			"check)",
	},
	{
		.id = "cfr_fcaps_strip", .fs = ALL, .op = OP_CFR, .flags = F_NOBODY | F_LOOP,
		.in_size = 100, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = 100,
		.prep = prep_fcaps,
		.want = 100, .post = post_nocaps,
		.pins = "seed 004: security.capability removed on copy (file_remove_privs -> "
			"security_inode_killpriv)",
		.prov = PROV_004_STRIP_SETUID,
	},
	/* timestamps */
	{
		.id = "cfr_mtime_ctime", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = B + 10, .out_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 10, .len = B + 10,
		.prep = prep_oldtimes,
		.want = B + 10, .post = post_times,
		.pins = "seed 005: dest mtime and ctime updated (file_modified via write path / "
			"generic_remap_file_range_prep)",
		.prov = PROV_005_TIMESTAMPS,
	},
	{
		.id = "cfr_src_atime", .fs = ALL, .op = OP_CFR, .flags = F_LOOP,
		.in_size = B + 10,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 1, .len = B + 10,
		.prep = prep_atime_rel,
		.want = B + 10, .post = post_atime,
		.pins = "seed 005: source atime updated under relatime on the splice path "
			"(filemap_splice_read file_accessed)",
		.prov = PROV_005_TIMESTAMPS,
	},
	{
		.id = "cfr_src_atime_strict", .fs = ALL, .op = OP_CFR, .flags = F_GUEST | F_LOOP,
		.in_size = B + 10,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 1, .len = B + 10,
		.prep = prep_atime_strict,
		.want = B + 10, .post = post_atime,
		.pins = "seed 005: MS_STRICTATIME bind remount: atime newer than m/ctime still "
			"updated (touch_atime)",
		.prov = PROV_005_TIMESTAMPS,
	},
	{
		.id = "cfr_above_eof_zero", .fs = XFS | EXT4, .op = OP_CFR, .flags = F_LOOP,
		.in_size = B, .out_size = 100,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.pos_out = 3 * B, .len = B,
		.prep = prep_mmap_garbage,
		.want = B,
		.pins = "copy above dest EOF: gap reads zeros despite mmap-dirtied post-EOF bytes "
			"(410fdc72b05a analogue; xfs_reflink_remap_prep zeroing / write path)",
		.prov = PROV_COMMIT_410FDC72B05A,
	},
	/* cross filesystem */
	{
		.id = "cfr_cross", .fs = CROSS, .op = OP_CFR,
		.in_size = B,
		.in_flags = O_RDONLY, .out_flags = O_RDWR,
		.len = B,
		.want_errno = EXDEV,
		.pins = "cross-sb copy -> EXDEV: allowed in 5.3 (5dae222a5ff0), narrowed by "
			"868f9f2f8e00 (5.19) to shared ->copy_file_range; xfs/ext4/tmpfs have "
			"none (generic_copy_file_checks)",
		.prov = PROV_COMMIT_5DAE222A5FF0,
	},
