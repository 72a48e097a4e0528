// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the suites' children: forking, time limits, killing and reaping
 * (kselftest_harness.h's way: a case runs in a process of its own, so a
 * crash or a hang costs that case only); see sg.h.
 */
#include "sg.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pid_t sg_spawn(int (*fn)(void *), void *arg, int group)
{
	pid_t pid;

	fflush(stdout);		/* nothing buffered is written twice */
	if ((pid = fork()) == 0) {
		int rc;

		if (group)
			setpgid(0, 0);
		rc = fn(arg);
		fflush(stdout);
		_exit(rc);
	}
	if (pid > 0 && group)
		setpgid(pid, pid);	/* both sides: whichever runs first */
	return pid;
}

/* SIGCHLD blocked, so that it stays pending for sigtimedwait: a child's
 * end wakes the waiter at once instead of at its next poll. */
static void block_chld(sigset_t *chld, sigset_t *old)
{
	sigemptyset(chld);
	sigaddset(chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, chld, old);
}

static void wait_chld(const sigset_t *chld, double secs)
{
	struct timespec ts = { 0, (long)(secs * 1e9) };

	sigtimedwait(chld, NULL, &ts);
}

unsigned sg_kill_reap(const pid_t *pid, int *st, unsigned n, int group, double grace)
{
	sigset_t chld, old;
	unsigned left = 0;
	double end;

	block_chld(&chld, &old);
	for (unsigned i = 0; i < n; i++)
		if (st[i] == -1)
			kill(group ? -pid[i] : pid[i], SIGKILL);
	for (end = sg_mono() + grace;; wait_chld(&chld, 0.1)) {
		left = 0;
		for (unsigned i = 0; i < n; i++) {
			int s;

			if (st[i] != -1)
				continue;
			if (waitpid(pid[i], &s, WNOHANG) == pid[i])
				st[i] = s;
			else
				left++;
		}
		if (!left || sg_mono() >= end)
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return left;
}

int sg_run_isolated(int (*fn)(void *), void *arg, double timeout, struct sg_end *end)
{
	sigset_t chld, old;
	double deadline;
	pid_t pid;
	int e;

	end->status = -1;
	end->reaped = end->timed_out = 0;
	block_chld(&chld, &old);	/* the child starts with it blocked too */
	if ((pid = sg_spawn(fn, arg, 1)) < 0) {
		e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = e;
		return -1;
	}
	deadline = sg_mono() + timeout;
	while (!(end->reaped = waitpid(pid, &end->status, WNOHANG) == pid) && sg_mono() < deadline)
		wait_chld(&chld, 0.2);
	if (!end->reaped) {
		end->timed_out = 1;
		end->status = -1;
		end->reaped = sg_kill_reap(&pid, &end->status, 1, 1, 5) == 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

void sg_rerun(int runs, int (*again)(void *), void *arg, const char *name, char *why, size_t wn)
{
	char first[1024];
	int k = 1;

	for (int i = 1; i < runs; i++)
		if (again(arg) > 0)
			k++;
	if (k == runs) {
		sg_say("# %s: failed %d of %d runs\n", name, k, runs);
		return;
	}
	snprintf(first, sizeof(first), "%s", why);
	snprintf(why, wn, "flaky %d/%d: %s", k, runs, first);
}
