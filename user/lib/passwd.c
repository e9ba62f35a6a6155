/* passwd.c: the user and group databases (<pwd.h>, <grp.h>: /etc/passwd and /etc/group, or root alone when they are missing) and the id setters of a system whose one user is root. */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DB_LINE_MAX	1024		/* longest entry read */
#define DB_FIELDS	7		/* passwd's; group has 4 */

/* Used when the file is missing: what Linux's base files hold for root. */
static const char root_passwd[] = "root:x:0:0:root:/root:/bin/sh";
static const char root_group[] = "root:x:0:";

/* A database: the file, or the built-in line; where getpwent/getgrent are. */
struct db {
	const char *path, *builtin;
	FILE *f;
	int builtin_done;
};

static struct db pw_db = { "/etc/passwd", root_passwd, NULL, 0 };
static struct db gr_db = { "/etc/group", root_group, NULL, 0 };

static void db_rewind(struct db *db)
{
	if (db->f)
		fclose(db->f);
	db->f = NULL;
	db->builtin_done = 0;
}

/* The next entry of db into *line (getline's buffer, grown as needed; newline
 * cut): 1, or 0 at the end (or out of memory). */
static int db_next(struct db *db, char **line, size_t *cap)
{
	if (!db->f && !db->builtin_done)
		db->f = fopen(db->path, "r");
	if (!db->f) {
		if (db->builtin_done)
			return 0;
		db->builtin_done = 1;
		free(*line);
		*line = strdup(db->builtin);
		*cap = *line ? strlen(*line) + 1 : 0;
		return *line != NULL;
	}
	while (__getline(line, cap, db->f) >= 0) {
		(*line)[strcspn(*line, "\n")] = 0;
		if ((*line)[0] && (*line)[0] != '#')
			return 1;
	}
	fclose(db->f);
	db->f = NULL;
	db->builtin_done = 1;		/* the file was there: no built-in entry */
	return 0;
}

/* Split line at ':' into at most n fields; the number found. */
static int db_split(char *line, char **field, int n)
{
	int k = 0;

	field[k++] = line;
	for (char *p = line; *p && k < n; p++)
		if (*p == ':') {
			*p = 0;
			field[k++] = p + 1;
		}
	return k;
}

/* Copy s into the caller's buffer at *pos: the copy, or NULL when it does not fit. */
static char *db_copy(const char *s, char *buf, size_t size, size_t *pos)
{
	size_t n = strlen(s) + 1;
	char *out = buf + *pos;

	if (*pos + n > size)
		return NULL;
	memcpy(out, s, n);
	*pos += n;
	return out;
}

/* A passwd line into pw, its strings in buf: 0, ERANGE (buf too small) or
 * ENOENT (a malformed line). */
static int pw_parse(char *line, struct passwd *pw, char *buf, size_t size)
{
	char *f[DB_FIELDS];
	size_t pos = 0;

	if (db_split(line, f, DB_FIELDS) != DB_FIELDS)
		return ENOENT;
	memset(pw, 0, sizeof(*pw));
	pw->pw_uid = (uid_t)strtoul(f[2], NULL, 10);
	pw->pw_gid = (gid_t)strtoul(f[3], NULL, 10);
	if (!(pw->pw_name = db_copy(f[0], buf, size, &pos)) ||
	    !(pw->pw_passwd = db_copy(f[1], buf, size, &pos)) ||
	    !(pw->pw_gecos = db_copy(f[4], buf, size, &pos)) ||
	    !(pw->pw_dir = db_copy(f[5], buf, size, &pos)) ||
	    !(pw->pw_shell = db_copy(f[6], buf, size, &pos)))
		return ERANGE;
	pw->pw_comment = pw->pw_gecos;
	return 0;
}

/* The first passwd entry with that name (name) or uid: 0 with *result set,
 * 0 with *result NULL when none, or an error number (POSIX's _r contract). */
static int pw_find(const char *name, uid_t uid, struct passwd *pw, char *buf, size_t size,
		   struct passwd **result)
{
	struct db db = { pw_db.path, pw_db.builtin, NULL, 0 };
	char *line = NULL, *copy = NULL;
	size_t cap = 0;
	int err = 0;

	*result = NULL;
	while (!*result && !err && db_next(&db, &line, &cap)) {
		char *f[DB_FIELDS];

		free(copy);
		if (!(copy = strdup(line))) {
			err = ENOMEM;
			break;
		}
		if (db_split(copy, f, DB_FIELDS) != DB_FIELDS)
			continue;
		if (name ? strcmp(f[0], name) : (uid_t)strtoul(f[2], NULL, 10) != uid)
			continue;
		err = pw_parse(line, pw, buf, size);
		if (!err)
			*result = pw;
	}
	free(copy);
	free(line);
	db_rewind(&db);
	return err;
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t size,
	       struct passwd **result)
{
	return pw_find(name, 0, pw, buf, size, result);
}

int getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t size, struct passwd **result)
{
	return pw_find(NULL, uid, pw, buf, size, result);
}

static struct passwd pw_static;
static char pw_buf[DB_LINE_MAX];

/* The static entry, or NULL with errno left 0 when there is none. */
struct passwd *getpwnam(const char *name)
{
	struct passwd *r;
	int err = getpwnam_r(name, &pw_static, pw_buf, sizeof(pw_buf), &r);

	if (err)
		errno = err;
	return r;
}

struct passwd *getpwuid(uid_t uid)
{
	struct passwd *r;
	int err = getpwuid_r(uid, &pw_static, pw_buf, sizeof(pw_buf), &r);

	if (err)
		errno = err;
	return r;
}

static char *ent_line;
static size_t ent_cap;

struct passwd *getpwent(void)
{
	char *line;

	while (db_next(&pw_db, &ent_line, &ent_cap) && (line = ent_line))
		if (!pw_parse(line, &pw_static, pw_buf, sizeof(pw_buf)))
			return &pw_static;
	return NULL;
}

void setpwent(void)
{
	db_rewind(&pw_db);
}

void endpwent(void)
{
	db_rewind(&pw_db);
}

/* ---- groups: members are not kept (gr_mem is an empty list) ---- */

static struct group gr_static;
static char gr_buf[DB_LINE_MAX];
static char *gr_no_members[1];

static int gr_parse(char *line, struct group *gr)
{
	char *f[4];
	size_t pos = 0;

	if (db_split(line, f, 4) < 3)
		return ENOENT;
	gr->gr_gid = (gid_t)strtoul(f[2], NULL, 10);
	gr->gr_name = db_copy(f[0], gr_buf, sizeof(gr_buf), &pos);
	gr->gr_passwd = db_copy(f[1], gr_buf, sizeof(gr_buf), &pos);
	gr->gr_mem = gr_no_members;
	return gr->gr_name && gr->gr_passwd ? 0 : ERANGE;
}

/* The first group with that name (name) or gid, or NULL. */
static struct group *gr_find(const char *name, gid_t gid)
{
	struct db db = { gr_db.path, gr_db.builtin, NULL, 0 };
	char *line = NULL;
	size_t cap = 0;
	struct group *found = NULL;

	while (!found && db_next(&db, &line, &cap)) {
		if (gr_parse(line, &gr_static))
			continue;
		if (name ? !strcmp(gr_static.gr_name, name) : gr_static.gr_gid == gid)
			found = &gr_static;
	}
	free(line);
	db_rewind(&db);
	return found;
}

struct group *getgrnam(const char *name)
{
	return gr_find(name, 0);
}

struct group *getgrgid(gid_t gid)
{
	return gr_find(NULL, gid);
}

struct group *getgrent(void)
{
	while (db_next(&gr_db, &ent_line, &ent_cap))
		if (!gr_parse(ent_line, &gr_static))
			return &gr_static;
	return NULL;
}

void setgrent(void)
{
	db_rewind(&gr_db);
}

void endgrent(void)
{
	db_rewind(&gr_db);
}

/* ---- ids: every process is root (uid and gid 0) and stays so ---- */

/* 0 for root's own id, else EPERM: there is no other user to become. */
static int id_keep_root(unsigned id)
{
	if (id == 0)
		return 0;
	errno = EPERM;
	return -1;
}

int setuid(uid_t uid) { return id_keep_root(uid); }
int seteuid(uid_t uid) { return id_keep_root(uid); }
int setgid(gid_t gid) { return id_keep_root(gid); }
int setegid(gid_t gid) { return id_keep_root(gid); }

/* No supplementary groups: 0 (any size, as Linux's with an empty list). */
int getgroups(int size, gid_t list[])
{
	(void)list;
	if (size < 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
