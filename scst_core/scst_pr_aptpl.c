// SPDX-License-Identifier: GPL-2.0-only
/*
 * scst_pr_aptpl.c - the APTPL file of a device's persistent reservations
 * (SPC-4 §5.9.5, "activate persist through power loss"):
 * /var/lib/scst/pr/<device>, SCST's path, in the text format of
 * scst_pr_file.c.
 *
 * Written crash-safely: the text goes to <device>.tmp, which is synced,
 * renamed over <device> and the directory synced, so that after a crash
 * the file is the old state or the new one, never a mix. Read when the
 * device registers; a file that cannot be read or parsed is refused with
 * one log line and the device's state is unknown (it fails closed) until
 * the administrator's pr_file_reset moves the file aside.
 *
 * Called in process context without spinlocks: on scst_exec_wq with
 * dev->pr_mutex held (PERSISTENT RESERVE OUT), or in a kworker that
 * device registration (or pr_file_reset, holding dev->pr_mutex) waits
 * for, before the device is visible; either way paths resolve against
 * the init task's root.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/file.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "scst_priv.h"

#define SCST_PR_DIR		"/var/lib/scst/pr"
#define SCST_PR_TMP_SUFFIX	".tmp"
#define SCST_PR_PATH_MAX	(sizeof(SCST_PR_DIR) + SCST_MAX_NAME + 8)
#define SCST_PR_UNKNOWN \
	": persistent reservation state unknown, commands refused until pr_file_reset"

/*
 * The idmap (6.3 and later) or user namespace (before) of a mount, as
 * vfs_mkdir(), vfs_unlink() and struct renamedata take it (Kbuild probe
 * mnt_idmap).
 */
#ifdef SCST_HAVE_MNT_IDMAP
#define scst_mnt_ns(mnt)	mnt_idmap(mnt)

static void scst_rd_set_ns(struct renamedata *rd, const struct vfsmount *mnt)
{
	rd->old_mnt_idmap = mnt_idmap(mnt);
	rd->new_mnt_idmap = rd->old_mnt_idmap;
}
#else
#define scst_mnt_ns(mnt)	mnt_user_ns(mnt)

static void scst_rd_set_ns(struct renamedata *rd, const struct vfsmount *mnt)
{
	rd->old_mnt_userns = mnt_user_ns(mnt);
	rd->new_mnt_userns = rd->old_mnt_userns;
}
#endif

/* "/var/lib/scst/pr/<name><suffix>"; device names hold no '/'. */
static int scst_pr_path(const struct scst_device *dev, const char *suffix,
			char *buf, size_t size)
{
	if (!strcmp(dev->name, ".") || !strcmp(dev->name, "..")) {
		pr_err("%s: a device of that name cannot have an APTPL file\n",
		       dev->name);
		return -EINVAL;
	}
	snprintf(buf, size, "%s/%s%s", SCST_PR_DIR, dev->name, suffix);
	return 0;
}

/* mkdir -p of SCST_PR_DIR, mode 0700 for what it creates. */
static int scst_pr_mkdirs(void)
{
	static const char *const dirs[] = {
		"/var", "/var/lib", "/var/lib/scst", SCST_PR_DIR,
	};
	struct dentry *d;
	struct path parent;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		d = kern_path_create(AT_FDCWD, dirs[i], &parent,
				     LOOKUP_DIRECTORY);
		if (IS_ERR(d)) {
			if (PTR_ERR(d) == -EEXIST)
				continue;
			return PTR_ERR(d);
		}
		ret = vfs_mkdir(scst_mnt_ns(parent.mnt), d_inode(parent.dentry),
				d, 0700);
		done_path_create(&parent, d);
		if (ret && ret != -EEXIST)
			return ret;
	}
	return 0;
}

static int scst_pr_fsync_path(const char *path, int flags)
{
	struct file *f;
	int ret;

	f = filp_open(path, flags, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = vfs_fsync(f, 0);
	filp_close(f, NULL);
	return ret;
}

/* rename(2) of @from over @to, both in SCST_PR_DIR. */
static int scst_pr_rename(const char *from, const char *to)
{
	struct dentry *trap, *old, *new;
	struct renamedata rd = { };
	struct path dir;
	int ret;

	ret = kern_path(SCST_PR_DIR, LOOKUP_DIRECTORY, &dir);
	if (ret)
		return ret;
	ret = mnt_want_write(dir.mnt);
	if (ret)
		goto put_path;
	trap = lock_rename(dir.dentry, dir.dentry);
	if (IS_ERR(trap)) {
		ret = PTR_ERR(trap);
		goto drop_write;
	}
	old = lookup_one_len(from, dir.dentry, strlen(from));
	if (IS_ERR(old)) {
		ret = PTR_ERR(old);
		goto unlock;
	}
	ret = -ENOENT;
	if (d_is_negative(old))
		goto put_old;
	new = lookup_one_len(to, dir.dentry, strlen(to));
	if (IS_ERR(new)) {
		ret = PTR_ERR(new);
		goto put_old;
	}
	rd.old_dir = d_inode(dir.dentry);
	rd.old_dentry = old;
	rd.new_dir = d_inode(dir.dentry);
	rd.new_dentry = new;
	scst_rd_set_ns(&rd, dir.mnt);
	ret = vfs_rename(&rd);
	dput(new);
put_old:
	dput(old);
unlock:
	unlock_rename(dir.dentry, dir.dentry);
drop_write:
	mnt_drop_write(dir.mnt);
put_path:
	path_put(&dir);
	return ret;
}

/*
 * unlink(2) of @name in SCST_PR_DIR: 1 when a file was removed (the
 * directory then needs a sync), 0 when there was none, or an errno.
 */
static int scst_pr_unlink(const char *name)
{
	struct dentry *d;
	struct path dir;
	int ret;

	ret = kern_path(SCST_PR_DIR, LOOKUP_DIRECTORY, &dir);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	ret = mnt_want_write(dir.mnt);
	if (ret)
		goto put_path;
	inode_lock_nested(d_inode(dir.dentry), I_MUTEX_PARENT);
	d = lookup_one_len(name, dir.dentry, strlen(name));
	if (IS_ERR(d)) {
		ret = PTR_ERR(d);
		goto unlock;
	}
	if (d_is_positive(d)) {
		ret = vfs_unlink(scst_mnt_ns(dir.mnt), d_inode(dir.dentry), d,
				 NULL);
		if (!ret)
			ret = 1;
	}
	dput(d);
unlock:
	inode_unlock(d_inode(dir.dentry));
	mnt_drop_write(dir.mnt);
put_path:
	path_put(&dir);
	return ret;
}

/* Write @len bytes of @text to @path, created or truncated, and sync it. */
static int scst_pr_write_file(const char *path, const char *text, size_t len)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int ret;

	f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = kernel_write(f, text, len, &pos);
	ret = n < 0 ? (int)n : (size_t)n != len ? -EIO : 0;
	if (!ret)
		ret = vfs_fsync(f, 0);
	filp_close(f, NULL);
	return ret;
}

/*
 * Make a rename or unlink in SCST_PR_DIR durable. It has happened by
 * then, so a failure here is logged, never turned into a failed command:
 * rolling the state back would leave memory disagreeing with the file.
 */
static void scst_pr_sync_dir(struct scst_device *dev)
{
	int ret = scst_pr_fsync_path(SCST_PR_DIR, O_RDONLY | O_DIRECTORY);

	if (ret)
		pr_warn("%s: cannot sync %s: error %d; the last change of its APTPL file may not survive a power loss\n",
			dev->name, SCST_PR_DIR, ret);
}

static int scst_pr_aptpl_save(struct scst_device *dev, char *path,
			      char *tmp)
{
	const char *base = strrchr(path, '/') + 1;
	const char *tbase = strrchr(tmp, '/') + 1;
	char *text;
	int len, ret;

	text = kvmalloc(SCST_PR_FILE_MAX_LEN, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	len = scst_pr_file_write(dev->pr, text, SCST_PR_FILE_MAX_LEN);
	ret = len < 0 || len >= SCST_PR_FILE_MAX_LEN ? -EINVAL : 0;
	if (!ret)
		ret = scst_pr_mkdirs();
	if (!ret)
		ret = scst_pr_write_file(tmp, text, len);
	if (!ret)
		ret = scst_pr_rename(tbase, base);
	if (!ret)
		scst_pr_sync_dir(dev);
	kvfree(text);
	return ret;
}

/**
 * scst_pr_aptpl_persist() - bring the APTPL file in line with the state
 * @dev: the device; dev->pr_mutex held, its state just changed
 * @what: SCST_PR_PERSIST_SAVE (write the state) or _REMOVE (remove the
 *	file)
 *
 * Return: 0, or a negative errno after one log line naming the file.
 */
int scst_pr_aptpl_persist(struct scst_device *dev, enum scst_pr_persist what)
{
	char path[SCST_PR_PATH_MAX], tmp[SCST_PR_PATH_MAX];
	int ret;

	lockdep_assert_held(&dev->pr_mutex);
	/* an unknown state never replaces the file it could not read */
	if (WARN_ON_ONCE(dev->pr_unknown))
		return -EIO;
	ret = scst_pr_path(dev, "", path, sizeof(path));
	if (!ret)
		ret = scst_pr_path(dev, SCST_PR_TMP_SUFFIX, tmp, sizeof(tmp));
	if (ret)
		return ret;
	if (what == SCST_PR_PERSIST_SAVE)
		ret = scst_pr_aptpl_save(dev, path, tmp);
	else
		ret = scst_pr_unlink(strrchr(path, '/') + 1);
	if (ret > 0) {
		scst_pr_sync_dir(dev);
		ret = 0;
	}
	if (ret)
		pr_err("%s: cannot %s %s: error %d\n", dev->name,
		       what == SCST_PR_PERSIST_SAVE ? "write" : "remove", path,
		       ret);
	return ret;
}

/* Read at most @size bytes of @path into @buf; return the length read. */
static ssize_t scst_pr_read_file(const char *path, char *buf, size_t size)
{
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	size_t len = 0;

	f = filp_open(path, O_RDONLY | O_NOFOLLOW, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	while (len < size) {
		n = kernel_read(f, buf + len, size - len, &pos);
		if (n < 0) {
			len = n;
			break;
		}
		if (!n)
			break;
		len += n;
	}
	filp_close(f, NULL);
	return len;
}

/* "offset N (record R): why" or "offset N (header): why" of a refusal */
static void scst_pr_scst_why(const struct scst_pr_scst_err *e, char *buf,
			     size_t size)
{
	if (e->record < 0)
		snprintf(buf, size, "offset %zu (header): %s", e->offset,
			 e->reason);
	else
		snprintf(buf, size, "offset %zu (record %d): %s", e->offset,
			 e->record, e->reason);
}

/*
 * After an import: keep SCST's files as <path>.scst and <path>.1.scst
 * (copies of the bytes read, synced, before anything is replaced), then
 * write ours over <path> as scst_pr_aptpl_persist() does, then remove
 * <path>.1, whose bytes are kept: a stale SCST backup beside our file
 * would be imported again should ours ever be removed (APTPL cleared).
 * A crash at any point leaves either SCST's <path> (imported again at
 * the next start) or ours.
 */
static int scst_pr_scst_replace(struct scst_device *dev, const char *path,
				const u8 *main, size_t main_len,
				const u8 *bak, size_t bak_len)
{
	char keep[SCST_PR_PATH_MAX], tmp[SCST_PR_PATH_MAX];
	char bpath[SCST_PR_PATH_MAX];
	int ret = 0;

	snprintf(bpath, sizeof(bpath), "%s.1", path);
	if (main) {
		snprintf(keep, sizeof(keep), "%s.scst", path);
		ret = scst_pr_write_file(keep, (const char *)main, main_len);
	}
	if (!ret && bak) {
		snprintf(keep, sizeof(keep), "%s.1.scst", path);
		ret = scst_pr_write_file(keep, (const char *)bak, bak_len);
	}
	if (ret)
		return ret;
	snprintf(tmp, sizeof(tmp), "%s%s", path, SCST_PR_TMP_SUFFIX);
	ret = scst_pr_aptpl_save(dev, (char *)path, tmp);
	if (ret || !bak)
		return ret;
	ret = scst_pr_unlink(strrchr(bpath, '/') + 1);
	if (ret < 0) {
		pr_warn("%s: cannot remove %s (kept as %s.1.scst): error %d; remove it by hand\n",
			dev->name, bpath, path, ret);
		return 0;
	}
	scst_pr_sync_dir(dev);
	return 0;
}

/*
 * SCST's own files at the device's path (scst_pr_scst_file.c): unless
 * @main (the bytes of @path, NULL if there is none) is in our format,
 * import SCST's <path> or, as SCST falls back, <path>.1, and put ours in
 * their place; one that cannot be imported leaves the state unknown and
 * every file as it is.
 *
 * Return: true when the device's state is settled (imported, refused,
 * or no file at all); false when @main is ours for scst_pr_file_parse().
 */
static bool scst_pr_scst_import(struct scst_device *dev, const char *path,
				const char *main, size_t main_len)
{
	static const char ours[] = "scst-ng-pr ";
	char bpath[SCST_PR_PATH_MAX], res[96], why[320], why1[320];
	struct scst_pr_scst_choice c;
	bool settled = true;
	ssize_t blen;
	u8 *bak;
	int ret;

	if (main && main_len >= sizeof(ours) - 1 &&
	    !memcmp(main, ours, sizeof(ours) - 1))
		return false;
	snprintf(bpath, sizeof(bpath), "%s.1", path);
	bak = kvmalloc(SCST_PR_SCST_FILE_MAX_LEN + 1, GFP_KERNEL);
	if (!bak) {
		pr_err("%s: out of memory reading %s: persistent reservation state unknown, commands refused until pr_file_reset\n",
		       dev->name, bpath);
		scst_pr_set_unknown(dev, "out of memory reading %s", bpath);
		return true;
	}
	blen = scst_pr_read_file(bpath, bak, SCST_PR_SCST_FILE_MAX_LEN + 1);
	if (blen < 0 && blen != -ENOENT) {
		pr_err("%s: cannot read %s: error %zd: persistent reservation state unknown, commands refused until pr_file_reset\n",
		       dev->name, bpath, blen);
		scst_pr_set_unknown(dev, "cannot read %s: error %zd", bpath,
				    blen);
		goto free;
	}
	scst_pr_scst_choose((const u8 *)main, main_len,
			    blen < 0 ? NULL : bak, blen < 0 ? 0 : blen,
			    dev->pr, &c);
	switch (c.src) {
	case SCST_PR_SCST_NONE:
		break;
	case SCST_PR_SCST_OURS:
		settled = false;
		break;
	case SCST_PR_SCST_REFUSED:
		why[0] = '\0';
		why1[0] = '\0';
		if (c.main_refused)
			scst_pr_scst_why(&c.main_err, why, sizeof(why));
		if (c.bak_refused)
			scst_pr_scst_why(&c.bak_err, why1, sizeof(why1));
		if (c.main_refused)
			pr_err("%s: cannot import SCST's %s: %s%s\n", dev->name,
			       path, why, c.bak_refused ? "" : SCST_PR_UNKNOWN);
		if (c.bak_refused)
			pr_err("%s: cannot import SCST's %s: %s%s\n", dev->name,
			       bpath, why1, SCST_PR_UNKNOWN);
		scst_pr_set_unknown(dev, "cannot import SCST's %s: %s",
				    c.main_refused ? path : bpath,
				    c.main_refused ? why : why1);
		break;
	case SCST_PR_SCST_MAIN:
	case SCST_PR_SCST_BACKUP:
		ret = scst_pr_scst_replace(dev, path, (const u8 *)main,
					   main_len, blen < 0 ? NULL : bak,
					   blen < 0 ? 0 : blen);
		if (ret) {
			pr_err("%s: imported SCST's %s but cannot write %s or keep SCST's files beside it: error %d: persistent reservation state unknown, commands refused until pr_file_reset\n",
			       dev->name, c.src == SCST_PR_SCST_MAIN ? path :
			       bpath, path, ret);
			scst_pr_set_unknown(dev,
					    "cannot write %s after importing SCST's file: error %d",
					    path, ret);
			break;
		}
		scst_pr_scst_res_text(dev->pr, res, sizeof(res));
		pr_info("%s: imported %u registrations and %s from SCST's %s\n",
			dev->name, dev->pr->nreg, res,
			c.src == SCST_PR_SCST_MAIN ? path : bpath);
		break;
	}
free:
	kvfree(bak);
	return settled;
}

/**
 * scst_pr_aptpl_load() - restore the state from the device's APTPL file
 * @dev: the new device, dev->pr initialized and empty
 *
 * No file: nothing to do. A file that cannot be read (or no memory to
 * read it), or that scst_pr_file_parse() refuses (one more byte than
 * SCST_PR_FILE_MAX_LEN is read so that it sees an oversized file), gets
 * one log line naming the file and the reason and leaves the state
 * unknown (scst_pr_set_unknown()): it may hold the reservation that
 * fences a node, so the device fails closed and the file is kept as it
 * is until the administrator writes devices/<dev>/pr_file_reset.
 * SCST's own files are imported once (scst_pr_scst_import()).
 */
void scst_pr_aptpl_load(struct scst_device *dev)
{
	char path[SCST_PR_PATH_MAX];
	struct scst_pr_file_err err = { };
	ssize_t len;
	char *text;

	if (!strcmp(dev->name, ".") || !strcmp(dev->name, ".."))
		return;
	snprintf(path, sizeof(path), "%s/%s", SCST_PR_DIR, dev->name);
	text = kvmalloc(SCST_PR_FILE_MAX_LEN + 1, GFP_KERNEL);
	if (!text) {
		pr_err("%s: out of memory reading %s: persistent reservation state unknown, commands refused until pr_file_reset\n",
		       dev->name, path);
		scst_pr_set_unknown(dev, "out of memory reading %s", path);
		return;
	}
	len = scst_pr_read_file(path, text, SCST_PR_FILE_MAX_LEN + 1);
	if (len < 0 && len != -ENOENT) {
		pr_err("%s: cannot read %s: error %zd: persistent reservation state unknown, commands refused until pr_file_reset\n",
		       dev->name, path, len);
		scst_pr_set_unknown(dev, "cannot read %s: error %zd", path,
				    len);
		goto free;
	}
	if (scst_pr_scst_import(dev, path, len < 0 ? NULL : text,
				len < 0 ? 0 : len))
		goto free;
	if (scst_pr_file_parse(text, len, dev->pr, &err)) {
		pr_err("%s: %s line %u: %s: persistent reservation state unknown, commands refused until pr_file_reset\n",
		       dev->name, path, err.line, err.reason ? err.reason : "?");
		scst_pr_set_unknown(dev, "%s line %u: %s", path, err.line,
				    err.reason ? err.reason : "?");
		goto free;
	}
	pr_info("%s: %u persistent reservation registrations restored from %s\n",
		dev->name, dev->pr->nreg, path);
free:
	kvfree(text);
}

/* pr_file_reset in a kworker, as the file is read: the host's root */
struct scst_pr_reset_work {
	struct work_struct work;
	struct scst_device *dev;
	int ret;
};

static void scst_pr_reset_workfn(struct work_struct *work)
{
	struct scst_pr_reset_work *rw =
		container_of(work, struct scst_pr_reset_work, work);
	struct scst_device *dev = rw->dev;
	char path[SCST_PR_PATH_MAX], bad[SCST_PR_PATH_MAX];
	int ret;

	/* SCST's backup too: it would be imported at the next start */
	ret = scst_pr_path(dev, ".1", path, sizeof(path));
	if (!ret)
		ret = scst_pr_path(dev, ".1.bad", bad, sizeof(bad));
	if (!ret)
		ret = scst_pr_rename(strrchr(path, '/') + 1,
				     strrchr(bad, '/') + 1);
	if (!ret) {
		scst_pr_sync_dir(dev);
		pr_info("%s: pr_file_reset: SCST's %s moved to %s\n",
			dev->name, path, bad);
	} else if (ret != -ENOENT) {
		pr_err("%s: pr_file_reset: cannot move %s to %s: error %d; the state stays unknown\n",
		       dev->name, path, bad, ret);
		rw->ret = ret;
		return;
	}
	ret = scst_pr_path(dev, "", path, sizeof(path));
	if (!ret)
		ret = scst_pr_path(dev, ".bad", bad, sizeof(bad));
	if (!ret)
		ret = scst_pr_rename(strrchr(path, '/') + 1,
				     strrchr(bad, '/') + 1);
	if (!ret) {
		scst_pr_sync_dir(dev);
		pr_info("%s: persistent reservation state reset by the administrator; %s moved to %s\n",
			dev->name, path, bad);
	} else if (ret == -ENOENT) {
		ret = 0;
		pr_info("%s: persistent reservation state reset by the administrator; no %s to move aside\n",
			dev->name, path);
	} else {
		pr_err("%s: pr_file_reset: cannot move %s to %s: error %d; the state stays unknown\n",
		       dev->name, path, bad, ret);
	}
	rw->ret = ret;
}

/**
 * scst_pr_file_reset() - the administrator discards an unknown PR state
 * @dev: the device
 *
 * devices/<dev>/pr_file_reset: the APTPL file that could not be read is
 * renamed <file>.bad (replacing an older one), SCST's backup <file>.1 if
 * there is one <file>.1.bad (else it would be imported at the next
 * start, scst_pr_scst_import()), and the device resumes
 * with no registrations and no reservation. The file is never written
 * while the state is unknown, so this is the only way it changes.
 *
 * Return: 0; -EINVAL when the state is known (nothing to reset, one log
 * line); or the errno of the rename, the state still unknown.
 */
int scst_pr_file_reset(struct scst_device *dev)
{
	struct scst_pr_reset_work rw = { .dev = dev };

	mutex_lock(&dev->pr_mutex);
	if (!dev->pr_unknown) {
		mutex_unlock(&dev->pr_mutex);
		pr_err("%s: pr_file_reset: the persistent reservation state is known, nothing to reset\n",
		       dev->name);
		return -EINVAL;
	}
	INIT_WORK_ONSTACK(&rw.work, scst_pr_reset_workfn);
	queue_work(system_unbound_wq, &rw.work);
	flush_work(&rw.work);
	destroy_work_on_stack(&rw.work);
	if (!rw.ret) {
		spin_lock(&dev->pr_lock);
		scst_pr_state_init(dev->pr);
		dev->pr_unknown = false;
		kfree(dev->pr_unknown_why);
		dev->pr_unknown_why = NULL;
		scst_pr_update_active(dev);
		spin_unlock(&dev->pr_lock);
		scst_res_changed(dev);
	}
	mutex_unlock(&dev->pr_mutex);
	return rw.ret;
}
