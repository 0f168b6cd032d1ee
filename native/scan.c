// skillrt's native directory scanner (Node-API, POSIX). Optional: when it is not built, the catalog lists
// directories from JavaScript with the same results (src/catalog/list-dirs.ts).
//
// start(dirs, headBytes, threads, ahead) lists `dirs` on `threads` background threads: for each directory
// its entries (name and kind from d_type, lstat when unknown) and, when it holds a regular SKILL.md (else
// skill.md), the first `headBytes` bytes of that file, opened relative to the directory. Threads run at
// most `ahead` directories past what JavaScript has taken, which bounds memory (heads are read into a
// ring of `ahead` slots). take(handle, start, end, heads) waits until directories [start, end) are done
// (listing those no thread has claimed yet itself), copies their heads one after the other into the
// `heads` buffer and returns the rest packed in a few flat values; ranges are taken in order, at most
// `ahead` long. stop(handle) ends the threads and frees everything (also done when the handle is
// garbage-collected).
#define _GNU_SOURCE
#define NAPI_VERSION 8
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KIND_OTHER = 0, KIND_FILE = 1, KIND_DIR = 2, KIND_LINK = 3 };
#define MAX_THREADS 8

typedef struct {
  char *path;
  int err;               // errno when the directory could not be listed
  char *names;           // entry names, each followed by '\0'
  size_t names_len;
  int count;
  unsigned char *kinds;  // one per entry
  int head_of;           // 0 none, 1 SKILL.md, 2 skill.md
  int head_len;          // bytes read, -1 none
  unsigned char *head;
  int done;              // guarded by the scan's mutex
} slot_t;

typedef struct {
  slot_t *slots;
  int n;
  int head_bytes;
  int ahead;
  unsigned char *ring;  // head_bytes for each of `ahead` slots: slot i reads into ring[i % ahead]
  atomic_int next;
  int taken;  // guarded by mu
  int stop;   // guarded by mu
  // The range take() waits for and how many of it are not done (one wake-up per range, not per
  // directory: on a VM a wake-up costs as much as listing a folder). Guarded by mu.
  int wait_from, wait_to, wait_left;
  pthread_mutex_t mu;
  pthread_cond_t done_cv;
  pthread_cond_t room_cv;
  pthread_t threads[MAX_THREADS];
  int nthreads;
  int freed;
} scan_t;

static int grow(char **buf, size_t *cap, size_t need) {
  if (need <= *cap) return 0;
  size_t next = *cap ? *cap : 256;
  while (next < need) next *= 2;
  char *p = realloc(*buf, next);
  if (p == NULL) return -1;
  *buf = p;
  *cap = next;
  return 0;
}

typedef struct {
  const char *name;
  unsigned char kind;
} entry_t;

static int compare_entries(const void *a, const void *b) {
  return strcmp(((const entry_t *)a)->name, ((const entry_t *)b)->name);
}

/** Sorts a slot's entries by name (byte order, as libuv lists them), so the caller's sort is cheap. */
static void sort_entries(slot_t *slot) {
  int n = slot->count;
  entry_t *entries = malloc((size_t)n * sizeof(entry_t));
  char *names = malloc(slot->names_len);
  if (entries == NULL || names == NULL) {
    free(entries);
    free(names);
    return;  // unsorted is still correct
  }
  const char *p = slot->names;
  for (int i = 0; i < n; i++) {
    entries[i].name = p;
    entries[i].kind = slot->kinds[i];
    p += strlen(p) + 1;
  }
  qsort(entries, (size_t)n, sizeof(entry_t), compare_entries);
  size_t at = 0;
  for (int i = 0; i < n; i++) {
    size_t len = strlen(entries[i].name) + 1;
    memcpy(names + at, entries[i].name, len);
    at += len;
    slot->kinds[i] = entries[i].kind;
  }
  free(entries);
  free(slot->names);
  slot->names = names;
}

/** Per listing thread: the last parent directory opened, so sibling folders open relative to it. */
typedef struct {
  char *parent;
  size_t parent_len;
  int parent_fd;
} walker_t;

static void walker_close(walker_t *w) {
  if (w->parent_fd >= 0) close(w->parent_fd);
  free(w->parent);
  w->parent = NULL;
  w->parent_len = 0;
  w->parent_fd = -1;
}

/**
 * Opens directory `path` for reading, relative to its parent's descriptor when the previous directory
 * had the same parent (siblings: the common case), which saves walking the whole path each time.
 * Returns -1 with errno as open(2) would set it for `path`.
 */
static int open_dir(walker_t *w, const char *path) {
  int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
#ifdef O_PATH
  const char *slash = strrchr(path, '/');
  if (slash != NULL && slash != path && slash[1] != '\0') {
    size_t len = (size_t)(slash - path);
    if (w->parent_fd < 0 || w->parent_len != len || memcmp(w->parent, path, len) != 0) {
      walker_close(w);
      char *parent = malloc(len + 1);
      if (parent != NULL) {
        memcpy(parent, path, len);
        parent[len] = '\0';
        int fd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
          w->parent = parent;
          w->parent_len = len;
          w->parent_fd = fd;
        } else {
          free(parent);
        }
      }
    }
    if (w->parent_fd >= 0) {
      int fd = openat(w->parent_fd, slash + 1, flags);
      if (fd >= 0 || (errno != EACCES && errno != EPERM)) return fd;
    }
  }
#endif
  return open(path, flags);
}

/** Adds one directory entry to the slot, if it may lead to a skill; returns -1 when out of memory. */
static int add_entry(slot_t *slot, int dfd, const char *name, unsigned char type, size_t *names_cap,
                     size_t *kinds_cap, int *which) {
  if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) return 0;
  if (type == DT_UNKNOWN) {
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISREG(st.st_mode)) type = DT_REG;
      else if (S_ISDIR(st.st_mode)) type = DT_DIR;
      else if (S_ISLNK(st.st_mode)) type = DT_LNK;
    }
  }
  int kind = type == DT_REG ? KIND_FILE : type == DT_DIR ? KIND_DIR : type == DT_LNK ? KIND_LINK : KIND_OTHER;
  int skill_file = strcmp(name, "SKILL.md") == 0 ? 1 : strcmp(name, "skill.md") == 0 ? 2 : 0;
  // Discovery needs only what may lead to a skill: folders, links and the skill files themselves.
  if (kind != KIND_DIR && kind != KIND_LINK && skill_file == 0) return 0;
  size_t len = strlen(name);
  if (grow(&slot->names, names_cap, slot->names_len + len + 1) != 0 ||
      grow((char **)&slot->kinds, kinds_cap, (size_t)slot->count + 1) != 0) {
    return -1;
  }
  memcpy(slot->names + slot->names_len, name, len + 1);
  slot->names_len += len + 1;
  slot->kinds[slot->count++] = (unsigned char)kind;
  if (kind == KIND_FILE && skill_file == 1) *which = 1;
  else if (kind == KIND_FILE && *which == 0 && skill_file == 2) *which = 2;
  return 0;
}

static void list_one(scan_t *s, walker_t *w, slot_t *slot) {
  slot->head_len = -1;
  int dfd = open_dir(w, slot->path);
  if (dfd < 0) {
    slot->err = errno ? errno : EIO;
    return;
  }
  size_t names_cap = 0, kinds_cap = 0;
  int which = 0;
#ifdef __linux__
  // getdents64 straight into a stack buffer: no DIR allocation and no fstat, as opendir would do.
  char buffer[32768];
  for (;;) {
    ssize_t got = getdents64(dfd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      slot->err = errno;
      break;
    }
    if (got == 0) break;
    for (ssize_t at = 0; at < got;) {
      struct dirent64 *entry = (struct dirent64 *)(buffer + at);
      at += entry->d_reclen;
      if (add_entry(slot, dfd, entry->d_name, entry->d_type, &names_cap, &kinds_cap, &which) != 0) {
        slot->err = ENOMEM;
        break;
      }
    }
    if (slot->err != 0) break;
  }
#else
  int listed = dup(dfd);
  DIR *dir = listed < 0 ? NULL : fdopendir(listed);
  if (dir == NULL) {
    slot->err = errno ? errno : EIO;
    if (listed >= 0) close(listed);
  } else {
    for (;;) {
      errno = 0;
      struct dirent *entry = readdir(dir);
      if (entry == NULL) {
        if (errno != 0) slot->err = errno;
        break;
      }
      if (add_entry(slot, dfd, entry->d_name, entry->d_type, &names_cap, &kinds_cap, &which) != 0) {
        slot->err = ENOMEM;
        break;
      }
    }
    closedir(dir);
  }
#endif
  if (slot->err == 0 && slot->count > 1) sort_entries(slot);
  if (slot->err == 0 && which != 0 && s->head_bytes > 0) {
    int fd = openat(dfd, which == 1 ? "SKILL.md" : "skill.md", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
      slot->head = s->ring + (size_t)(slot - s->slots) % (size_t)s->ahead * (size_t)s->head_bytes;
      ssize_t got = 0;
      while (got < s->head_bytes) {
        ssize_t r = pread(fd, slot->head + got, (size_t)(s->head_bytes - got), got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
          got = -1;
          break;
        }
        if (r == 0) break;
        got += r;
      }
      if (got >= 0) {
        slot->head_len = (int)got;
        slot->head_of = which;
      }
      close(fd);
    }
  }
  close(dfd);
}

static void *run(void *arg) {
  scan_t *s = arg;
  walker_t walker = {NULL, 0, -1};
  for (;;) {
    int i = atomic_fetch_add(&s->next, 1);
    if (i >= s->n) break;
    pthread_mutex_lock(&s->mu);
    while (!s->stop && i >= s->taken + s->ahead) pthread_cond_wait(&s->room_cv, &s->mu);
    int stop = s->stop;
    pthread_mutex_unlock(&s->mu);
    if (stop) break;
    list_one(s, &walker, &s->slots[i]);
    pthread_mutex_lock(&s->mu);
    s->slots[i].done = 1;
    if (i >= s->wait_from && i < s->wait_to && --s->wait_left == 0) pthread_cond_signal(&s->done_cv);
    pthread_mutex_unlock(&s->mu);
  }
  walker_close(&walker);
  return NULL;
}

static void free_slot(slot_t *slot) {
  free(slot->path);
  free(slot->names);
  free(slot->kinds);
  slot->path = NULL;
  slot->names = NULL;
  slot->kinds = NULL;
  slot->head = NULL;
}

static void scan_stop(scan_t *s) {
  if (s->freed) return;
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  pthread_cond_broadcast(&s->room_cv);
  pthread_mutex_unlock(&s->mu);
  for (int t = 0; t < s->nthreads; t++) pthread_join(s->threads[t], NULL);
  for (int i = 0; i < s->n; i++) free_slot(&s->slots[i]);
  free(s->slots);
  s->slots = NULL;
  free(s->ring);
  s->ring = NULL;
  pthread_mutex_destroy(&s->mu);
  pthread_cond_destroy(&s->done_cv);
  pthread_cond_destroy(&s->room_cv);
  s->freed = 1;
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  scan_t *s = data;
  scan_stop(s);
  free(s);
}

#define CHECK(call)                                 \
  do {                                              \
    if ((call) != napi_ok) {                        \
      napi_throw_error(env, NULL, "skillrt scan: " #call); \
      return NULL;                                  \
    }                                               \
  } while (0)

static napi_value start(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint32_t n = 0;
  int32_t head_bytes = 0, threads = 1, ahead = 1;
  CHECK(napi_get_array_length(env, argv[0], &n));
  CHECK(napi_get_value_int32(env, argv[1], &head_bytes));
  CHECK(napi_get_value_int32(env, argv[2], &threads));
  CHECK(napi_get_value_int32(env, argv[3], &ahead));
  if (threads < 1) threads = 1;
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  if (ahead < 1) ahead = 1;
  if (head_bytes < 0) head_bytes = 0;
  scan_t *s = calloc(1, sizeof(scan_t));
  if (s == NULL) {
    napi_throw_error(env, NULL, "skillrt scan: out of memory");
    return NULL;
  }
  s->slots = calloc(n ? n : 1, sizeof(slot_t));
  s->ring = malloc((size_t)ahead * (size_t)(head_bytes > 0 ? head_bytes : 1));
  if (s->slots == NULL || s->ring == NULL) {
    free(s->slots);
    free(s->ring);
    free(s);
    napi_throw_error(env, NULL, "skillrt scan: out of memory");
    return NULL;
  }
  s->n = (int)n;
  s->head_bytes = head_bytes;
  s->ahead = ahead;
  atomic_init(&s->next, 0);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->done_cv, NULL);
  pthread_cond_init(&s->room_cv, NULL);
  for (uint32_t i = 0; i < n; i++) {
    napi_value item;
    size_t len = 0;
    if (napi_get_element(env, argv[0], i, &item) != napi_ok ||
        napi_get_value_string_utf8(env, item, NULL, 0, &len) != napi_ok) {
      s->n = (int)i;
      finalize(env, s, NULL);
      napi_throw_type_error(env, NULL, "skillrt scan: dirs must be strings");
      return NULL;
    }
    s->slots[i].path = malloc(len + 1);
    if (s->slots[i].path == NULL) {
      s->n = (int)i + 1;
      finalize(env, s, NULL);
      napi_throw_error(env, NULL, "skillrt scan: out of memory");
      return NULL;
    }
    napi_get_value_string_utf8(env, item, s->slots[i].path, len + 1, &len);
  }
  for (int t = 0; t < threads; t++) {
    if (pthread_create(&s->threads[t], NULL, run, s) != 0) break;
    s->nthreads++;
  }
  if (s->nthreads == 0) {
    finalize(env, s, NULL);
    napi_throw_error(env, NULL, "skillrt scan: could not start a thread");
    return NULL;
  }
  napi_value handle;
  CHECK(napi_create_object(env, &handle));
  CHECK(napi_wrap(env, handle, s, finalize, NULL, NULL));
  return handle;
}

static scan_t *unwrap(napi_env env, napi_value handle) {
  void *data = NULL;
  if (napi_unwrap(env, handle, &data) != napi_ok || data == NULL) return NULL;
  scan_t *s = data;
  return s->freed ? NULL : s;
}

static napi_value typed(napi_env env, napi_typedarray_type type, size_t length, size_t element, void **data) {
  napi_value buffer, array;
  if (napi_create_arraybuffer(env, length * element, data, &buffer) != napi_ok) return NULL;
  if (napi_create_typedarray(env, type, length, buffer, 0, &array) != napi_ok) return NULL;
  return array;
}

static napi_value take(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  scan_t *s = unwrap(env, argv[0]);
  int32_t from = 0, to = 0;
  CHECK(napi_get_value_int32(env, argv[1], &from));
  CHECK(napi_get_value_int32(env, argv[2], &to));
  void *heads = NULL;
  size_t heads_room = 0;
  CHECK(napi_get_buffer_info(env, argv[3], &heads, &heads_room));
  if (s == NULL || from < 0 || to > s->n || from > to || to - from > s->ahead ||
      (size_t)(to - from) * (size_t)s->head_bytes > heads_room) {
    napi_throw_range_error(env, NULL, "skillrt scan: bad handle or range");
    return NULL;
  }
  pthread_mutex_lock(&s->mu);
  if (to > s->taken + s->ahead) {
    // Let the threads run up to the end of this range.
    s->taken = to - s->ahead;
    pthread_cond_broadcast(&s->room_cv);
  }
  pthread_mutex_unlock(&s->mu);
  // Rather than wait, list what nobody has claimed yet in this range here (the calling thread would
  // otherwise sleep while the background threads catch up).
  walker_t walker = {NULL, 0, -1};
  for (int i = atomic_load(&s->next); i < to;) {
    if (!atomic_compare_exchange_weak(&s->next, &i, i + 1)) continue;  // i reloaded
    list_one(s, &walker, &s->slots[i]);
    pthread_mutex_lock(&s->mu);
    s->slots[i].done = 1;
    pthread_mutex_unlock(&s->mu);
    i = atomic_load(&s->next);
  }
  walker_close(&walker);
  pthread_mutex_lock(&s->mu);
  int left = 0;
  for (int i = from; i < to; i++) left += !s->slots[i].done;
  s->wait_from = from;
  s->wait_to = to;
  s->wait_left = left;
  while (s->wait_left > 0) pthread_cond_wait(&s->done_cv, &s->mu);
  s->wait_from = s->wait_to = 0;
  pthread_mutex_unlock(&s->mu);

  int count = to - from;
  size_t names_len = 0, entries = 0;
  for (int i = from; i < to; i++) {
    slot_t *slot = &s->slots[i];
    names_len += slot->names_len;
    entries += (size_t)slot->count;
  }
  int32_t *sizes, *errnos, *head_lengths;
  unsigned char *kinds, *head_of;
  napi_value sizes_v = typed(env, napi_int32_array, (size_t)count, 4, (void **)&sizes);
  napi_value errnos_v = typed(env, napi_int32_array, (size_t)count, 4, (void **)&errnos);
  napi_value head_lengths_v = typed(env, napi_int32_array, (size_t)count, 4, (void **)&head_lengths);
  napi_value head_of_v = typed(env, napi_uint8_array, (size_t)count, 1, (void **)&head_of);
  napi_value kinds_v = typed(env, napi_uint8_array, entries, 1, (void **)&kinds);
  if (sizes_v == NULL || errnos_v == NULL || head_lengths_v == NULL || head_of_v == NULL ||
      kinds_v == NULL) {
    napi_throw_error(env, NULL, "skillrt scan: out of memory");
    return NULL;
  }
  char *names = malloc(names_len ? names_len : 1);
  if (names == NULL) {
    napi_throw_error(env, NULL, "skillrt scan: out of memory");
    return NULL;
  }
  size_t names_at = 0, kinds_at = 0, heads_at = 0;
  for (int i = from; i < to; i++) {
    slot_t *slot = &s->slots[i];
    int k = i - from;
    errnos[k] = slot->err;
    sizes[k] = slot->err ? -1 : slot->count;
    head_lengths[k] = slot->err ? -1 : slot->head_len;
    head_of[k] = (unsigned char)slot->head_of;
    if (!slot->err) {
      memcpy(names + names_at, slot->names, slot->names_len);
      names_at += slot->names_len;
      memcpy(kinds + kinds_at, slot->kinds, (size_t)slot->count);
      kinds_at += (size_t)slot->count;
      if (slot->head_len > 0) {
        memcpy((char *)heads + heads_at, slot->head, (size_t)slot->head_len);
        heads_at += (size_t)slot->head_len;
      }
    }
    free_slot(slot);
  }
  napi_value names_v;
  napi_status status = napi_create_string_utf8(env, names, names_at, &names_v);
  free(names);
  if (status != napi_ok) {
    napi_throw_error(env, NULL, "skillrt scan: could not decode names");
    return NULL;
  }
  pthread_mutex_lock(&s->mu);
  if (to > s->taken) {
    s->taken = to;
    pthread_cond_broadcast(&s->room_cv);
  }
  pthread_mutex_unlock(&s->mu);

  napi_value result;
  CHECK(napi_create_object(env, &result));
  CHECK(napi_set_named_property(env, result, "sizes", sizes_v));
  CHECK(napi_set_named_property(env, result, "errnos", errnos_v));
  CHECK(napi_set_named_property(env, result, "names", names_v));
  CHECK(napi_set_named_property(env, result, "kinds", kinds_v));
  CHECK(napi_set_named_property(env, result, "headLengths", head_lengths_v));
  CHECK(napi_set_named_property(env, result, "headOf", head_of_v));
  return result;
}

static napi_value stop(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CHECK(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *data = NULL;
  if (napi_unwrap(env, argv[0], &data) == napi_ok && data != NULL) scan_stop(data);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"start", NULL, start, NULL, NULL, NULL, napi_default, NULL},
      {"take", NULL, take, NULL, NULL, NULL, napi_default, NULL},
      {"stop", NULL, stop, NULL, NULL, NULL, napi_default, NULL},
  };
  if (napi_define_properties(env, exports, 3, props) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
