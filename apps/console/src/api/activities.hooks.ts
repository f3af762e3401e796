// The console's activities and their waiver questions.
// Each hook wraps one operation of the API client in TanStack Query (caching, retries, polling), so pages stay thin
// and never call fetch themselves.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addOperatorQuestionOperation,
  createOperatorActivityOperation,
  editOperatorActivityOperation,
  listOperatorActivitiesOperation,
  listOperatorQuestionsOperation,
  type ActivityChanges,
  type NewOperatorActivity,
  type NewQuestion,
} from '@backbone/contracts/browser';
import { call } from './client.js';

export function useActivities() {
  return useQuery({
    queryKey: ['activities'],
    queryFn: ({ signal }) => call(listOperatorActivitiesOperation, {}, signal),
    staleTime: 30_000,
  });
}

export function useCreateActivity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (activity: NewOperatorActivity) => call(createOperatorActivityOperation, { body: activity }),
    onSettled: () => client.invalidateQueries({ queryKey: ['activities'] }),
  });
}

export function useEditActivity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ activityId, changes }: { activityId: string; changes: ActivityChanges }) =>
      call(editOperatorActivityOperation, { params: { ActivityID: activityId }, body: changes }),
    onSettled: () => client.invalidateQueries({ queryKey: ['activities'] }),
  });
}

export function useQuestions(activityId: string | undefined) {
  return useQuery({
    queryKey: ['questions', activityId],
    queryFn: ({ signal }) => call(listOperatorQuestionsOperation, { params: { ActivityID: activityId! } }, signal),
    enabled: activityId !== undefined,
  });
}

export function useAddQuestion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ activityId, question }: { activityId: string; question: NewQuestion }) =>
      call(addOperatorQuestionOperation, { params: { ActivityID: activityId }, body: question }),
    onSettled: (_data, _error, { activityId }) => client.invalidateQueries({ queryKey: ['questions', activityId] }),
  });
}
