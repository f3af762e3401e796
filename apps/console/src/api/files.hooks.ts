// The desk's uploads for waiver answers: one file at a time into the account's files (a photo of a signed paper
// waiver, an ID scan), its FileID then sent as the answer with the sale or the edit.
import { useMutation } from '@tanstack/react-query';
import { uploadOperatorFileOperation } from '@backbone/contracts/browser';
import { upload } from './client.js';

export function useUploadFile() {
  return useMutation({ mutationFn: (file: File) => upload(uploadOperatorFileOperation, file) });
}
