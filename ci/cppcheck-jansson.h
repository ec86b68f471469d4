/* For cppcheck only (make check): jansson's iteration macros, spelled as plain loops so the
 * analyser can follow them without reading the system's jansson.h. */
#define json_array_foreach(array, index, value)                                                    \
    for ((index) = 0;                                                                              \
         (index) < json_array_size(array) && ((value) = json_array_get((array), (index)));         \
         (index)++)
#define json_object_foreach(object, key, value)                                                    \
    for ((key) = json_object_iter_key(json_object_iter(object));                                   \
         (key) && ((value) = json_object_get((object), (key)));                                    \
         (key) = json_object_iter_key(json_object_iter_next((object), json_object_key_to_iter(key))))
#define json_object_foreach_safe(object, n, key, value)                                            \
    for ((key) = json_object_iter_key(json_object_iter(object)), (n) = NULL;                       \
         (key) && ((value) = json_object_get((object), (key)));                                    \
         (key) = NULL)
