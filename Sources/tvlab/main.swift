print("tvlab")
