/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg-syscall cases: sub-block O_DIRECT at EOF: seed 011 (fs/iomap).
 * Included into the table of sg-syscall.c (case_at), which says what each field means.
 */
	/* seed 011 */
	{
		.id = "dio_eof_zero", .fs = XFS | EXT4, .op = OP_CUSTOM, .flags = F_NOIMG,
		.in_flags = O_RDONLY, .out_flags = O_RDWR, .in_kind = K_REG,
		.call = call_dio_eof,
		.want = 512, .post = post_dio_eof,
		.pins = "seed 011 b450672fb66b iomap: sub-block dio needs to zeroout beyond EOF "
			"(iomap_dio_bio_iter); see call_dio_eof",
		.prov = PROV_011_DIO_ZEROOUT,
	},
