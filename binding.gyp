{
  "targets": [
    {
      "target_name": "skillrt_scan",
      "conditions": [
        ["OS!='win'", {
          "sources": ["native/scan.c"],
          "cflags": ["-O2", "-std=gnu11", "-Wall", "-Wextra", "-Wno-unused-parameter"],
          "libraries": ["-lpthread"]
        }]
      ]
    }
  ]
}
